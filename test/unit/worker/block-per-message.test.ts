import { describe, expect, it } from 'vitest';
import type { RunRecord, TileOutput } from '../../../lib/model/run.js';
import type { TileTask } from '../../../lib/model/tile.js';
import { blockPerMessage } from '../../../worker/block-per-message.js';
import { TileDataError } from '../../../worker/errors.js';

const tiles: TileTask[] = [0, 1, 2, 3].map((x) => ({ id: `${x}`.repeat(16), z: 4, x, y: 0 }));
const run = { runId: 'r-test0001' } as RunRecord;
const output = (t: TileTask): TileOutput => ({ key: `k/${t.x}`, etag: `e${t.x}`, bytes: 10 + t.x });
const signal = new AbortController().signal;

describe('blockPerMessage (per-sub-tile handler → metatile engine)', () => {
  it('makes the asked sub-tile and the rest of its message in one call, then answers from that', async () => {
    const calls: number[][] = [];
    const handle = blockPerMessage(tiles, async (_run, block) => {
      calls.push(block.map((t) => t.x));
      return new Map(block.map((t) => [t.id, output(t)]));
    });
    // The handler skipped tile 0 (already marked) and asks from tile 1 on.
    expect(await handle(run, tiles[1]!, signal)).toEqual(output(tiles[1]!));
    expect(await handle(run, tiles[2]!, signal)).toEqual(output(tiles[2]!));
    expect(await handle(run, tiles[3]!, signal)).toEqual(output(tiles[3]!));
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('after a failed block goes one sub-tile at a time: one extra tool run, not one per sub-tile', async () => {
    const calls: number[][] = [];
    const handle = blockPerMessage(tiles, async (_run, block) => {
      calls.push(block.map((t) => t.x));
      if (block.length > 1 || block[0]!.x === 1) throw new TileDataError('bad block');
      return new Map(block.map((t) => [t.id, output(t)]));
    });
    await expect(handle(run, tiles[0]!, signal)).rejects.toThrow('bad block');
    await expect(handle(run, tiles[1]!, signal)).rejects.toThrow('bad block');
    expect(await handle(run, tiles[2]!, signal)).toEqual(output(tiles[2]!));
    expect(await handle(run, tiles[3]!, signal)).toEqual(output(tiles[3]!));
    expect(calls).toEqual([[0, 1, 2, 3], [1], [2], [3]]);
  });
});
