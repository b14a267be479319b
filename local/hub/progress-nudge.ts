/**
 * The local progress loop's wait, ended as soon as the workers' own logs say a run's last
 * metatile is done (docs/architecture.md, "Local stack"). On AWS the loop waits its computed
 * time between checks; locally it waits up to `pollMs`, so a run ended there half of it, on
 * average, after its last marker. The check itself still decides from the ledger: a nudge
 * that came too early (a count the logs got wrong) costs one check, a missed one `pollMs`.
 */
export interface ProgressNudge {
  /** A worker's log line, parsed: `metatile done` lines carry their run and sub-tile count. */
  observe(line: Readonly<Record<string, unknown>> | undefined): void;
  /**
   * Resolves after `maxMs`, or once the metatiles logged done since this call cover what
   * `last` (the run's previous check: sub-tiles accounted for, of total) left to do; at once
   * without a previous check (see below).
   */
  wait(
    runId: string,
    last: { readonly accounted: number; readonly total: number } | undefined,
    maxMs: number,
  ): Promise<void>;
}

export function progressNudge(): ProgressNudge {
  const doneByRun = new Map<string, number>();
  const waiters = new Set<{ readonly runId: string; readonly until: number; readonly wake: () => void }>();
  return {
    observe(line) {
      if (line?.msg !== 'metatile done' || typeof line.runId !== 'string') return;
      const runId = line.runId;
      const done = (doneByRun.get(runId) ?? 0) + (Number(line.tiles) || 0);
      doneByRun.set(runId, done);
      for (const waiter of waiters) if (waiter.runId === runId && done >= waiter.until) waiter.wake();
    },
    wait(runId, last, maxMs) {
      // A run's first check goes at once: it learns the totals that nudge the later waits. Made
      // to wait, a job done inside that wait (a 20-tile one is, in a quarter second) ended the
      // whole wait after its last marker: half a second on an up (bench, start-up profile).
      if (!last || last.total <= 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const seen = doneByRun.get(runId) ?? 0;
        const waiter = {
          runId,
          until: seen + Math.max(1, last.total - last.accounted),
          wake: () => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve();
          },
        };
        const timer = setTimeout(waiter.wake, maxMs);
        waiters.add(waiter);
      });
    },
  };
}

/**
 * The progress check, made to wait first: up to pollMs, or until the workers' logs say the
 * run's last metatile is done.
 */
export function nudgedCheck(
  nudge: ProgressNudge,
  pollMs: number,
  check: (event: unknown) => Promise<unknown>,
): (event: unknown) => Promise<unknown> {
  const last = new Map<string, { accounted: number; total: number }>();
  return async (event) => {
    const runId = String((event as { runId?: unknown }).runId);
    await nudge.wait(runId, last.get(runId), pollMs);
    const result = (await check(event)) as { accounted?: number; counters?: { total?: number } };
    last.set(runId, { accounted: Number(result.accounted ?? 0), total: Number(result.counters?.total ?? 0) });
    return result;
  };
}
