import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ProcessGroupSurvivedError } from '../../../lib/process/errors.js';
import type { ReceivedMessage } from '../../../lib/queue/work-queue.js';
import type { Handoff } from '../../../worker/handoff.js';
import { createStopController } from '../../../worker/stop-controller.js';
import { workerLoop } from '../../../worker/worker-loop.js';
import { createRecordingQueue, received } from '../../support/recording-queue.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

/**
 * A worker loop over `count` messages whose handlers run tool → handoff → upload, each phase
 * taking a few event-loop turns; records every phase's start and end, and the peak in flight.
 */
function harness(count: number, options: { failAt?: number; stopAfterTools?: number } = {}) {
  const events: string[] = [];
  const pending: ReceivedMessage[] = Array.from({ length: count }, (_, i) => received({}, 1, `m${i}`));
  const stop = createStopController({ graceMs: 60_000, reserveMs: 1_000 });
  let inFlight = 0;
  let peak = 0;
  let tools = 0;
  const queue = {
    ...createRecordingQueue(),
    async receive() {
      await tick();
      const next = pending.shift();
      return next ? [next] : [];
    },
  };
  const handle = async (message: ReceivedMessage, handoff: Handoff) => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    try {
      events.push(`tool ${message.id}`);
      await tick();
      if (message.id === `m${options.failAt}`) throw new ProcessGroupSurvivedError('stuck');
      events.push(`tool-done ${message.id}`);
      tools += 1;
      if (tools === options.stopAfterTools) stop.request('SIGTERM');
      await handoff.toolDone(stop.cutoff);
      events.push(`upload ${message.id}`);
      await tick();
      await tick();
      events.push(`marker ${message.id}`);
      return 'completed' as const;
    } finally {
      inFlight -= 1;
    }
  };
  let idle = 0;
  const run = () =>
    workerLoop({
      onIdle: async () => {
        idle += 1;
      },
      queue,
      log: pino({ level: 'silent' }),
      stop,
      receiveWaitSeconds: 0,
      visibilitySeconds: 60,
      idleExitMs: 30,
      handle,
    });
  return { events, run, peak: () => peak, inFlight: () => inFlight, idle: () => idle, queue };
}

describe('workerLoop: a metatile uploads while the next one is in its tool', () => {
  it('starts the next tool before the previous marker, uploads one metatile at a time, two in flight at most', async () => {
    const h = harness(4);
    expect(await h.run()).toBe(0);
    const at = (e: string) => h.events.indexOf(e);
    for (let i = 1; i < 4; i += 1) {
      // Overlap: the next tool starts while the previous metatile is uploading.
      expect(at(`tool m${i}`)).toBeLessThan(at(`marker m${i - 1}`));
      expect(at(`tool m${i}`)).toBeGreaterThan(at(`upload m${i - 1}`));
      // One upload phase at a time: this one's uploads start after the previous marker.
      expect(at(`upload m${i}`)).toBeGreaterThan(at(`marker m${i - 1}`));
    }
    expect(h.peak()).toBe(2);
    expect(h.events.filter((e) => e.startsWith('marker'))).toHaveLength(4);
    // The queue found empty (before the idle exit): pending batched deletes may go out.
    expect(h.idle()).toBeGreaterThan(0);
  });

  it('a stop requested with two in flight finishes both before the loop returns 75; the next message is not taken', async () => {
    const h = harness(4, { stopAfterTools: 2 });
    expect(await h.run()).toBe(75);
    expect(h.inFlight()).toBe(0);
    expect(h.events.filter((e) => e.startsWith('marker'))).toEqual(['marker m0', 'marker m1']);
    expect(h.events).not.toContain('tool m2');
  });

  it('a tool that survived SIGKILL: the upload beside it still finishes, then the loop returns 1', async () => {
    const h = harness(4, { failAt: 1 });
    expect(await h.run()).toBe(1);
    expect(h.inFlight()).toBe(0);
    expect(h.events).toContain('marker m0');
    expect(h.events).not.toContain('tool m2');
  });
});

describe('workerLoop: a receive in flight at a stop', () => {
  /**
   * The first receive brings a message; the second is in flight when the stop arrives: it
   * answers `m2` when `answer()` is called, and rejects when its signal aborts (as the SDK does).
   */
  function stopHarness() {
    // No budget left after the reserve: a SIGTERM's cutoff fires at once, as in a reclaim that
    // leaves no time for the work in flight.
    const stop = createStopController({ graceMs: 3_000, reserveMs: 3_000 });
    const abandon = new AbortController();
    const queue = createRecordingQueue();
    let answer: (() => void) | undefined;
    let aborted = 0;
    let n = 0;
    let inFlight: () => void = () => {};
    const waiting = new Promise<void>((r) => {
      inFlight = r;
    });
    queue.receive = async (_max, _wait, _visibility, options) => {
      n += 1;
      if (n === 1) return [received({}, 1, 'm1')];
      inFlight();
      return new Promise<ReceivedMessage[]>((resolve, reject) => {
        answer = () => resolve([received({}, 1, `m${n}`)]);
        const abort = () => {
          aborted += 1;
          reject(options?.signal?.reason);
        };
        if (options?.signal?.aborted) abort();
        else options?.signal?.addEventListener('abort', abort);
      });
    };
    const loop = workerLoop({
      queue,
      log: pino({ level: 'silent' }),
      stop,
      receiveWaitSeconds: 20,
      visibilitySeconds: 60,
      // As the worker composes it (run-worker.ts).
      abandonReceive: AbortSignal.any([stop.interrupted, abandon.signal]),
      handle: async () => 'completed' as const,
    });
    return { queue, stop, abandon, loop, waiting, answer: () => answer?.(), aborted: () => aborted };
  }

  it('a SIGTERM, even past its cutoff, lets the long poll answer; what it brings goes back fresh', async () => {
    // The bug this catches: the receive aborted at the SIGTERM or at its cutoff (`signal:
    // stop.cutoff`). SQS still hands a poll's message to a client that has gone: it stayed
    // invisible for a lease and its metatile stalled a minute (the spot fallback run lost two so).
    const h = stopHarness();
    await h.waiting;
    h.stop.request('SIGTERM');
    // The cutoff's listeners run synchronously as it fires: a receive wired to it is aborted by now.
    await new Promise((r) => h.stop.cutoff.addEventListener('abort', r, { once: true }));
    expect(h.aborted()).toBe(0);
    h.answer();
    expect(await h.loop).toBe(75);
    expect(h.queue.actions).toContain('requeue m2');
  });

  it('the local stack stopping abandons the poll at once: the final stop does not wait it out', async () => {
    // The bug this catches: the abandon signal not passed to the receive, so every local stop
    // waited up to 20 s for its idle workers' polls.
    const h = stopHarness();
    await h.waiting;
    h.abandon.abort();
    h.stop.request('SIGTERM');
    expect(await h.loop).toBe(75);
    expect(h.aborted()).toBe(1);
    expect(h.queue.actions.filter((a) => a.startsWith('requeue'))).toEqual([]);
  });

  it('the stack stopping a moment before its SIGTERM ends the loop, not a back-off and a retry', async () => {
    // The bug this catches: the abandoned receive taken for a failed one ("receive failed;
    // backing off", a warning in every up's stop), then retried against an aborted signal.
    const h = stopHarness();
    await h.waiting;
    h.abandon.abort();
    expect(await h.loop).toBe(0);
    expect(h.aborted()).toBe(1);
  });

  it('a SIGINT cuts the poll at once (the operator wants everything stopped now)', async () => {
    const h = stopHarness();
    await h.waiting;
    h.stop.request('SIGINT');
    expect(await h.loop).toBe(75);
    expect(h.aborted()).toBe(1);
  });
});
