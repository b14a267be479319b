import { afterAll, describe, expect, it } from 'vitest';
import { stackClients } from '../../support/stack-clients.js';

const { store, clients } = stackClients();
afterAll(() => clients.destroy());

describe('listing a prefix of more than one page, as S3 lists it', () => {
  // A run's outputs hold `mosaic.vrt` beside `mosaic/…` (its block VRTs). S3 lists keys in byte
  // order, so `mosaic.vrt` comes before `mosaic/…`; the S3 stand-in walked its directories first
  // and, once a page ended inside `mosaic/`, dropped `mosaic.vrt` from the next one (the bug the
  // 1,000,000-sub-tile finalize bench met: its mosaic was not found). Bug this catches: the
  // s3rver patch's key-ordered walk removed.
  it('returns every key once, in key order, across a page boundary inside a directory', async () => {
    const prefix = `list-pages-${Date.now()}/`;
    const blocks = Array.from(
      { length: 1_001 },
      (_, i) => `${prefix}mosaic/${String(i).padStart(4, '0')}.vrt`,
    );
    const keys = [`${prefix}collection.json`, `${prefix}mosaic.vrt`, ...blocks, `${prefix}summary.json`];
    for (let i = 0; i < keys.length; i += 32)
      await Promise.all(keys.slice(i, i + 32).map((k) => store.putText(k, '{}')));
    const listed: string[] = [];
    for await (const o of store.list(prefix)) listed.push(o.key);
    expect(listed).toEqual([...keys].sort());
    expect(listed).toContain(`${prefix}mosaic.vrt`);
  }, 180_000);
});
