import { describe, expect, it } from 'vitest';
import { createBlockReader } from '../../../../lib/source/block-reader.js';
import {
  ImplausibleHeaderError,
  SourceReadError,
  TruncatedSourceError,
} from '../../../../lib/source/errors.js';
import type { ObjectStore } from '../../../../lib/store/object-store.js';
import { countingStore } from '../../../support/counting-store.js';
import { createMemoryStore } from '../../../support/memory-store.js';

const SIZE = 10_000;
const data = Uint8Array.from({ length: SIZE }, (_, i) => i % 251);

function setup(blockSize = 1000, maxBlocks = 4) {
  const memory = createMemoryStore();
  memory.putBytes('obj', data);
  const { store, counts } = countingStore(memory);
  return { reader: createBlockReader(store, 'obj', SIZE, { blockSize, maxBlocks }), counts };
}

describe('createBlockReader', () => {
  it('returns exactly the bytes asked for, across block boundaries', async () => {
    const { reader } = setup();
    expect(await reader.read(950, 100)).toEqual(data.slice(950, 1050));
    expect(await reader.read(0, 1)).toEqual(data.slice(0, 1));
  });

  it('rounds reads out to blocks and serves repeats from the cache', async () => {
    const { reader, counts } = setup();
    await reader.read(10, 20);
    await reader.read(500, 100);
    expect(counts).toMatchObject({ rangedGets: 1, bytesRead: 1000 });
    expect(reader.stats).toEqual({ bytes: 1000, requests: 1 });
  });

  it('fetches a run of adjacent missing blocks with one GET', async () => {
    const { reader, counts } = setup(1000, 8);
    await reader.read(1500, 10);
    await reader.read(0, 4000);
    // block 1 was cached: blocks 0 and 2-3 are two runs
    expect(counts.rangedGets).toBe(3);
    expect(counts.bytesRead).toBe(4000);
  });

  it('shares a block being fetched between concurrent reads', async () => {
    const { reader, counts } = setup();
    await Promise.all([reader.read(0, 10), reader.read(20, 10), reader.read(900, 50)]);
    expect(counts.rangedGets).toBe(1);
  });

  it('evicts least recently used blocks beyond the cache size', async () => {
    const { reader, counts } = setup(1000, 2);
    await reader.read(0, 1);
    await reader.read(1000, 1);
    await reader.read(2000, 1);
    await reader.read(0, 1);
    expect(counts.rangedGets).toBe(4);
  });

  it('clamps a read that runs past the end, and says it did', async () => {
    const { reader } = setup();
    expect(reader.hitEnd).toBe(false);
    const tail = await reader.read(9990, 1024);
    expect(tail).toEqual(data.slice(9990));
    expect(reader.hitEnd).toBe(true);
  });

  it('throws TruncatedSourceError for a read that starts at or past the end', async () => {
    const { reader } = setup();
    await expect(reader.read(SIZE, 10)).rejects.toThrow(TruncatedSourceError);
    await expect(reader.read(SIZE + 5, 10)).rejects.toThrow(
      's3://memory-bucket/obj: the file refers to byte 10005 but the object is only 10000 bytes long; it is truncated',
    );
  });

  it('refuses a single read larger than the limit', async () => {
    const memory = createMemoryStore();
    memory.putBytes('obj', data);
    const reader = createBlockReader(memory, 'obj', SIZE, { maxReadBytes: 100 });
    await expect(reader.read(0, 5000)).rejects.toThrow(ImplausibleHeaderError);
  });

  it('reports a store that returns fewer bytes than the listed size as truncation', async () => {
    const memory = createMemoryStore();
    memory.putBytes('obj', data.slice(0, 500));
    const reader = createBlockReader(memory, 'obj', SIZE, { blockSize: 1000 });
    await expect(reader.read(0, 10)).rejects.toThrow(/asked for bytes 0-999, got 500 bytes/);
  });

  it('wraps a store failure as SourceReadError with its cause, and retries the block next time', async () => {
    const memory = createMemoryStore();
    memory.putBytes('obj', data);
    let fail = true;
    const flaky: ObjectStore = {
      ...memory,
      async getRange(key, start, end) {
        if (fail) throw new Error('SlowDown');
        return memory.getRange(key, start, end);
      },
    };
    const reader = createBlockReader(flaky, 'obj', SIZE);
    const error = await reader.read(0, 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceReadError);
    expect((error as Error).message).toMatch(/reading bytes 0-9999 failed: SlowDown/);
    expect((error as Error).cause).toBeInstanceOf(Error);
    fail = false;
    expect(await reader.read(0, 10)).toEqual(data.slice(0, 10));
  });
});
