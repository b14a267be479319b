import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MetadataMd5Store } from '../../../../local/stack/s3rver-store.js';
import { fileTempDir } from '../../../support/temp-dir.js';

const store = new MetadataMd5Store(fileTempDir('geohub-s3rver-put-'));
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** `bytes` as a request body arrives: in chunks of 64 KiB, each a turn of the event loop apart. */
function body(bytes: Buffer): Readable {
  let at = 0;
  return new Readable({
    read() {
      setImmediate(() => {
        this.push(at < bytes.length ? bytes.subarray(at, at + 65_536) : null);
        at += 65_536;
      });
    },
  });
}

describe('MetadataMd5Store.putObject', () => {
  it("answers once the object's file holds every byte, from a Buffer or from a request's body", async () => {
    for (const [key, bytes, content] of [
      ['from/a-buffer.bin', randomBytes(96 * 1024 * 1024), undefined],
      ['from/a-body.bin', randomBytes(24 * 1024 * 1024), 'stream'],
    ] as const) {
      const put = await store.putObject({
        bucket: 'b',
        key,
        content: content === 'stream' ? body(bytes) : bytes,
        metadata: { 'content-type': 'application/octet-stream' },
      });
      // Read at once, as the GET that follows the PUT's answer would.
      const path = store.getResourcePath('b', key, 'object');
      expect(statSync(path).size).toBe(bytes.length);
      expect(put).toEqual({ size: bytes.length, md5: md5(bytes) });
      expect(md5(readFileSync(path))).toBe(md5(bytes));
    }
  });

  it("a write that fails is the PUT's error, and the stand-in lives on", async () => {
    // The object's file cannot be made: a directory has its name.
    mkdirSync(store.getResourcePath('b', 'blocked.bin', 'object'), { recursive: true });
    for (const content of [Buffer.from('bytes'), body(randomBytes(1024 * 1024))]) {
      await expect(
        store.putObject({ bucket: 'b', key: 'blocked.bin', content, metadata: {} }),
      ).rejects.toMatchObject({ code: 'EISDIR' });
    }
    const put = await store.putObject({
      bucket: 'b',
      key: 'after.bin',
      content: Buffer.from('ok'),
      metadata: {},
    });
    expect(put.size).toBe(2);
  });
});
