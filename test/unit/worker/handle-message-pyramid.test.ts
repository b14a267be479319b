import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { metatileMessage, parseTileMessage } from '../../../lib/model/message.js';
import type { Metatile } from '../../../lib/model/metatile.js';
import { readParentLines } from '../../../lib/pyramid/parent-lines.js';
import { handleMessage } from '../../../worker/handle-message.js';
import type { HandleMessageDeps } from '../../../worker/handle-message-deps.js';
import { createStopController } from '../../../worker/stop-controller.js';
import { claimAs, outputsOf } from '../../support/ledger-run.js';
import { received } from '../../support/recording-queue.js';
import { twoLevelPyramid } from '../../support/two-level-pyramid.js';

/** A pyramid of zooms 3-4 over 8 × 8 tiles: four base metatiles under one parent of 16 tiles. */
async function pyramid(failFirstSend: boolean) {
  const { ledger, store, queue, runId, children } = await twoLevelPyramid(
    'r-handle-pyramid',
    8,
    (bodies, call) =>
      failFirstSend && call === 1 ? bodies.map((_, index) => ({ index, reason: 'ServiceUnavailable' })) : [],
  );
  const made: Metatile[] = [];
  const deps: HandleMessageDeps = {
    ledger,
    queue,
    store,
    log: pino({ level: 'silent' }),
    stop: createStopController({ graceMs: 60_000, reserveMs: 1_000 }),
    workerId: 'w1',
    leaseMs: 60_000,
    runWatchMs: 60_000,
    retryDelaySeconds: 7,
    processTiles: async (_run, metatile) => {
      made.push(metatile as Metatile);
      return outputsOf(runId, metatile as Metatile);
    },
  };
  const messageOf = (m: Metatile, receiveCount = 1) =>
    received(JSON.parse(metatileMessage(runId, m)), receiveCount);
  return { ledger, queue, runId, children, deps, made, messageOf, store };
}

describe('handleMessage in a pyramid', () => {
  it("keeps the last child's message until its parent is sent: a failed send comes back, the retry sends it", async () => {
    const { ledger, queue, runId, children, deps, made, messageOf } = await pyramid(true);
    for (const child of children.slice(0, 3))
      await (await claimAs(ledger, runId, child, 'w0')).markDone(outputsOf(runId, child), 5);
    const last = children[3]!;
    // Made and marked, but the parent's send failed: not deleted, back after the retry delay.
    expect(await handleMessage(deps, messageOf(last))).toBe('retry-later');
    expect((await ledger.getMetatile(runId, last.id))?.state).toBe('DONE');
    expect(queue.actions).toEqual(['send 1', 'visibility m1 7']);
    expect(queue.sent).toEqual([]);
    // Its next delivery: already marked, so no tool work; the parent goes, then the message.
    expect(await handleMessage(deps, messageOf(last, 2))).toBe('completed');
    expect(made).toHaveLength(1);
    expect(queue.actions.slice(2)).toEqual(['send 1', 'delete m1']);
    const parent = parseTileMessage(queue.sent[0]);
    if (!parent.ok) throw new Error(parent.reason);
    expect(parent.message.tiles).toHaveLength(16);
    expect(new Set(parent.message.children)).toEqual(new Set(children.map((c) => c.id)));
    // The parent itself: made from its children, marked like any metatile.
    expect(await handleMessage(deps, received(JSON.parse(queue.sent[0]!), 1, 'm2'))).toBe('completed');
    expect(made[1]?.children).toHaveLength(4);
    expect(made[1]?.tiles.every((t) => t.z === 3)).toBe(true);
    expect((await ledger.getRun(runId))?.counters.done).toBe(80);
  });

  it('does not make a parent whose children are not all made: no claim, deleted, sent again by its last child', async () => {
    const { ledger, queue, runId, children, deps, made, messageOf, store } = await pyramid(false);
    for (const child of [children[0]!, children[1]!, children[3]!])
      await (await claimAs(ledger, runId, child, 'w0')).markDone(outputsOf(runId, child), 5);
    // The parent's message before its last child is made (as a re-drive or a stale-stop check sends it).
    const [parent] = await readParentLines(store, runId, children[0]!.up!);
    expect(await handleMessage(deps, received(JSON.parse(metatileMessage(runId, parent!)), 1, 'm9'))).toBe(
      'waiting',
    );
    expect(await ledger.getMetatile(runId, parent!.id)).toBeUndefined();
    expect(made).toEqual([]);
    expect(queue.actions).toEqual(['delete m9']);
    // The last child made: it sends the parent, which is made then.
    expect(await handleMessage(deps, messageOf(children[2]!))).toBe('completed');
    expect(queue.sent).toHaveLength(1);
    expect(await handleMessage(deps, received(JSON.parse(queue.sent[0]!), 1, 'm10'))).toBe('completed');
    expect((await ledger.getMetatile(runId, parent!.id))?.state).toBe('DONE');
  });
});
