import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  linkMirroredObject,
  mirroredObject,
  mirrorOutput,
  mirrorPath,
  runMirror,
} from '../../../../lib/output/output-mirror.js';
import { tempDir } from '../../../support/temp-dir.js';

const md5 = (b: Buffer) => `"${createHash('md5').update(b).digest('hex')}"`;

describe('the output mirror', () => {
  it('keeps a finished tile under its key, linked, and gives it back only while it is the object', async () => {
    const mirror = tempDir('geohub-mirror-test-');
    const file = join(tempDir('geohub-scratch-test-'), '1.tif');
    const bytes = Buffer.from('tile bytes');
    writeFileSync(file, bytes);
    const key = 'tiles/r-0123456789abcdef0123/12/3/1.tif';
    await mirrorOutput(mirror, key, file);
    // One name, no leftover from the write aside; a hard link on the same filesystem.
    expect(readdirSync(mirror)).toEqual([encodeURIComponent(key)]);
    expect(statSync(mirrorPath(mirror, key)).ino).toBe(statSync(file).ino);

    expect(await mirroredObject(mirror, key, { bytes: bytes.length, etag: md5(bytes) })).toEqual(bytes);
    // Not the object: another ETag, another size, a multipart ETag, a key never mirrored.
    const other = Buffer.from('tile bytez');
    expect(await mirroredObject(mirror, key, { bytes: bytes.length, etag: md5(other) })).toBeUndefined();
    expect(await mirroredObject(mirror, key, { bytes: bytes.length + 1, etag: md5(bytes) })).toBeUndefined();
    expect(
      await mirroredObject(mirror, key, { bytes: bytes.length, etag: `${md5(bytes).slice(0, -1)}-2"` }),
    ).toBeUndefined();
    expect(
      await mirroredObject(mirror, `${key}x`, { bytes: bytes.length, etag: md5(bytes) }),
    ).toBeUndefined();
  });

  it('a tile written again replaces its entry; without a mirror, or when it cannot be written, nothing fails', async () => {
    const mirror = tempDir('geohub-mirror-test-');
    const scratch = tempDir('geohub-scratch-test-');
    const key = 'tiles/r-0123456789abcdef0123/12/3/1.tif';
    writeFileSync(join(scratch, 'a.tif'), 'first');
    writeFileSync(join(scratch, 'b.tif'), 'second');
    await mirrorOutput(mirror, key, join(scratch, 'a.tif'));
    await mirrorOutput(mirror, key, join(scratch, 'b.tif'));
    const second = Buffer.from('second');
    expect(await mirroredObject(mirror, key, { bytes: 6, etag: md5(second) })).toEqual(second);
    expect(readdirSync(mirror)).toHaveLength(1);

    await expect(mirrorOutput(undefined, key, join(scratch, 'a.tif'))).resolves.toBeUndefined();
    await expect(mirrorOutput(join(mirror, 'gone'), key, join(scratch, 'a.tif'))).resolves.toBeUndefined();
    await expect(mirrorOutput(mirror, key, join(scratch, 'missing.tif'))).resolves.toBeUndefined();
    expect(readdirSync(mirror)).toHaveLength(1);
    expect(await mirroredObject(undefined, key, { bytes: 6, etag: md5(second) })).toBeUndefined();
  });

  it('links the mirrored tile to a new name only while it is the object, and leaves nothing otherwise', async () => {
    const mirror = tempDir('geohub-mirror-test-');
    const scratch = tempDir('geohub-scratch-test-');
    const out = tempDir('geohub-out-test-');
    const key = 'tiles/r-0123456789abcdef0123/12/3/1.tif';
    const bytes = Buffer.from('tile bytes');
    writeFileSync(join(scratch, '1.tif'), bytes);
    await mirrorOutput(mirror, key, join(scratch, '1.tif'));

    const linked = join(out, 'linked.tif');
    expect(linkMirroredObject(mirror, key, { bytes: bytes.length, etag: md5(bytes) }, linked)).toBe(true);
    // The same file under a second name: no bytes written, no file made.
    expect(statSync(linked).ino).toBe(statSync(mirrorPath(mirror, key)).ino);
    expect(readFileSync(linked)).toEqual(bytes);

    // Not the object (another ETag, another size), no such tile, no mirror, a name already taken.
    const other = Buffer.from('tile bytez');
    const refused = join(out, 'refused.tif');
    expect(linkMirroredObject(mirror, key, { bytes: bytes.length, etag: md5(other) }, refused)).toBe(false);
    expect(linkMirroredObject(mirror, key, { bytes: 3, etag: md5(bytes) }, refused)).toBe(false);
    expect(linkMirroredObject(mirror, `${key}x`, { bytes: 10, etag: md5(bytes) }, refused)).toBe(false);
    expect(linkMirroredObject(undefined, key, { bytes: 10, etag: md5(bytes) }, refused)).toBe(false);
    expect(existsSync(refused)).toBe(false);
    expect(linkMirroredObject(mirror, key, { bytes: 10, etag: md5(bytes) }, linked)).toBe(false);
    expect(readFileSync(linked)).toEqual(bytes);
  });

  it("an up's mirror takes a run only into the directory made for it, never through a link", async () => {
    const root = tempDir('geohub-up-mirror-test-');
    // A geohub run's own stack: every run, into the root.
    expect(await runMirror(root, 'r-00000001', false)).toBe(root);
    expect(await runMirror(undefined, 'r-00000001', true)).toBeUndefined();
    // An up: only a run its CLI asked for (its directory made by the up's API).
    expect(await runMirror(root, 'r-00000001', true)).toBeUndefined();
    mkdirSync(join(root, 'r-00000001'));
    expect(await runMirror(root, 'r-00000001', true)).toBe(join(root, 'r-00000001'));
    symlinkSync(tempDir('geohub-elsewhere-'), join(root, 'r-00000002'));
    expect(await runMirror(root, 'r-00000002', true)).toBeUndefined();
  });
});
