import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../lib/model/run.js';
import { sizedSourceAccess } from '../../../worker/sized-source-access.js';
import type { SourceAccess } from '../../../worker/source-access.js';
import { createMemoryStore } from '../../support/memory-store.js';

const runOf = (runId: string, key: string) =>
  ({ runId, source: { bucket: 'memory-bucket', key, version: 'v1' } }) as unknown as RunRecord;

/** A SourceAccess that says which way a path went and records what it was asked. */
function recording(way: string) {
  const retained: string[][] = [];
  const access: SourceAccess = {
    resolve: async (run) => `${way}:${run.source.key}`,
    toolEnv: (run) => ({ WAY: way, RUN: run.runId }),
    readable: async () => way === 'cached',
    retain: async (ids) => void retained.push([...ids]),
    dispose: async () => {},
  };
  return { access, retained };
}

function setUp(limit: number) {
  const store = createMemoryStore();
  store.putBytes('small.tif', new Uint8Array(100));
  store.putBytes('large.tif', new Uint8Array(1_000));
  let heads = 0;
  const counted = {
    ...store,
    head: (key: string) => {
      heads += 1;
      return store.head(key);
    },
  };
  const ranged = recording('ranged');
  const cached = recording('cached');
  const choices: [string, string, number | undefined][] = [];
  const sources = sizedSourceAccess(ranged.access, cached.access, counted, limit, (run, way, bytes) =>
    choices.push([run.runId, way, bytes]),
  );
  return { sources, choices, heads: () => heads, ranged, cached };
}

describe('sizedSourceAccess: a copy of a small source, ranges for a large one', () => {
  it('chooses by the pinned version’s size, once per run', async () => {
    const { sources, choices, heads } = setUp(500);
    const small = runOf('r-small', 'small.tif');
    const large = runOf('r-large', 'large.tif');
    for (let i = 0; i < 3; i += 1) {
      expect(await sources.resolve(small)).toBe('cached:small.tif');
      expect(await sources.resolve(large)).toBe('ranged:large.tif');
    }
    expect(heads()).toBe(2);
    expect(choices).toEqual([
      ['r-small', 'cached', 100],
      ['r-large', 'ranged', 1_000],
    ]);
    // The limit is inclusive; readable() asks the way chosen.
    expect(await sources.readable(small)).toBe(true);
    expect(await sources.readable(large)).toBe(false);
  });

  it('a source its HEAD cannot see goes the ranged way (whose reads then fail as they should)', async () => {
    const { sources, choices } = setUp(500);
    expect(await sources.resolve(runOf('r-gone', 'gone.tif'))).toBe('ranged:gone.tif');
    expect(choices).toEqual([['r-gone', 'ranged', undefined]]);
  });

  it('a VRT is read in place, however small: the files it names sit beside it in the bucket', async () => {
    const { sources, choices, heads } = setUp(500);
    expect(await sources.resolve(runOf('r-vrt', 'in/big.VRT'))).toBe('ranged:in/big.VRT');
    expect(choices).toEqual([['r-vrt', 'ranged', undefined]]);
    expect(heads()).toBe(0);
  });

  it('a failed HEAD is asked again by the next metatile, not remembered', async () => {
    const store = createMemoryStore();
    store.putBytes('small.tif', new Uint8Array(100));
    let fail = true;
    const flaky = {
      ...store,
      head: (key: string) => (fail ? Promise.reject(new Error('SlowDown')) : store.head(key)),
    };
    const access = sizedSourceAccess(recording('ranged').access, recording('cached').access, flaky, 500);
    const run = runOf('r-flaky', 'small.tif');
    await expect(access.resolve(run)).rejects.toThrow('SlowDown');
    fail = false;
    expect(await access.resolve(run)).toBe('cached:small.tif');
  });

  it('the tool’s environment is the ranged one either way; retain is passed to both and forgets choices', async () => {
    const { sources, heads, ranged, cached } = setUp(500);
    const small = runOf('r-small', 'small.tif');
    await sources.resolve(small);
    expect(sources.toolEnv(small)).toEqual({ WAY: 'ranged', RUN: 'r-small' });
    await sources.retain(new Set(['r-other']));
    expect(ranged.retained).toEqual([['r-other']]);
    expect(cached.retained).toEqual([['r-other']]);
    await sources.resolve(small);
    expect(heads()).toBe(2);
  });
});
