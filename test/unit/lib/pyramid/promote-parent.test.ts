import { describe, expect, it } from 'vitest';
import { tileIdFor } from '../../../../lib/model/ids.js';
import { parseTileMessage } from '../../../../lib/model/message.js';
import { metatileOf } from '../../../../lib/model/metatile.js';
import { readChildren } from '../../../../lib/pyramid/child-tiles.js';
import { promoteParent } from '../../../../lib/pyramid/promote-parent.js';
import { claimAs, outputsOf } from '../../../support/ledger-run.js';
import type { createMemoryLedger } from '../../../support/memory-ledger.js';
import { twoLevelPyramid } from '../../../support/two-level-pyramid.js';

const twoLevels = (width = 8) => twoLevelPyramid('r-promote-test', width);

const done = async (
  ledger: ReturnType<typeof createMemoryLedger>,
  runId: string,
  m: Parameters<typeof outputsOf>[1],
) => (await claimAs(ledger, runId, m, 'w1')).markDone(outputsOf(runId, m), 10);

describe('a pyramid parent', () => {
  it('is sent by the child that finds all its siblings accounted for, not before', async () => {
    const { ledger, store, queue, runId, children } = await twoLevels();
    expect(children).toHaveLength(4);
    for (const child of children.slice(0, 3)) {
      await done(ledger, runId, child);
      expect(await promoteParent({ ledger, store, queue }, runId, child.up!)).toBe('waiting');
    }
    expect(queue.sent).toEqual([]);
    // The last one parked with a stopped run: accounted for, the parent goes (and is parked in turn).
    await ledger.park(runId, [children[3]!], 'PARKED', { class: 'RunStoppedError', message: 'stopped' });
    expect(await promoteParent({ ledger, store, queue }, runId, children[3]!.up!)).toBe('sent');
    expect(queue.sent).toHaveLength(1);
    const parsed = parseTileMessage(queue.sent[0]);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.message.tiles).toHaveLength(16);
    expect(parsed.message.tiles.every((t) => t.z === 3)).toBe(true);
    expect(new Set(parsed.message.children)).toEqual(new Set(children.map((c) => c.id)));
    expect(parsed.message.up).toBeUndefined();
  });

  it('goes as soon as its own region is done, however much of the level above is left', async () => {
    const { ledger, store, queue, runId, children } = await twoLevels(16);
    // Two parents: x 0-3 and x 4-7 at zoom 3, each over four of the eight base metatiles.
    const west = children.filter((c) => c.tiles[0]!.x < 8);
    const east = children.filter((c) => c.tiles[0]!.x >= 8);
    expect([west.length, east.length]).toEqual([4, 4]);
    for (const child of west) await done(ledger, runId, child);
    expect(await promoteParent({ ledger, store, queue }, runId, west[0]!.up!)).toBe('sent');
    expect(await promoteParent({ ledger, store, queue }, runId, east[0]!.up!)).toBe('waiting');
    const sent = parseTileMessage(queue.sent[0]);
    if (!sent.ok) throw new Error(sent.reason);
    expect(sent.message.tiles.every((t) => t.x < 4)).toBe(true);
  });

  it('is made only once its children are done or failed, from the tiles under its own', async () => {
    const { ledger, runId, children } = await twoLevels();
    const parent = metatileOf(
      [
        { z: 3, x: 0, y: 0 },
        { z: 3, x: 1, y: 0 },
      ].map((t) => ({ id: tileIdFor(runId, 'raster-xyz', 'v1', t), ...t })),
    );
    const withChildren = { ...parent, children: children.map((c) => c.id) };
    expect(await readChildren(ledger, runId, withChildren)).toEqual({ ready: false, pending: 4 });
    for (const child of children.slice(0, 3)) await done(ledger, runId, child);
    await ledger.park(runId, [children[3]!], 'PARKED', { class: 'RunStoppedError', message: 'stopped' });
    // Parked is accounted for, but not made: a re-driven child is made again first.
    expect(await readChildren(ledger, runId, withChildren)).toEqual({ ready: false, pending: 1 });
    await ledger.unpark(runId);
    const claim = await claimAs(ledger, runId, children[3]!, 'w2');
    await claim.markFailed({ class: 'TileDataError', message: 'corrupt' });
    const reading = await readChildren(ledger, runId, withChildren);
    if (!reading.ready) throw new Error('not ready');
    // Tiles 0/0 and 1/0 at zoom 3: their children are x 0-3, y 0-1 at zoom 4, eight tiles.
    expect(reading.tiles.map((t) => `${t.x}/${t.y}`).sort()).toEqual(
      ['0/0', '1/0', '2/0', '3/0', '0/1', '1/1', '2/1', '3/1'].sort(),
    );
    expect(reading.tiles.every((t) => t.output.key.endsWith(`${t.z}/${t.x}/${t.y}.tif`))).toBe(true);
  });
});
