/** Finished runs whose local copies a worker keeps, besides the runs in flight. */
export const KEPT_FINISHED_RUNS = 4;

export interface RecentRuns {
  /** A metatile of this run starts. */
  begin(runId: string): void;
  /** It ended: returns the runs whose copies stay (those in flight and the last few). */
  end(runId: string): ReadonlySet<string>;
}

/**
 * Which runs' source and member copies a long-lived worker keeps on its scratch disk: every run
 * with a metatile in flight, and the `keep` it worked on last. Without it every run a worker ever
 * served would stay on its disk until the task stops (a Fargate task's ephemeral storage is
 * 20–200 GB); a run that comes back after its copies went is downloaded again.
 */
export function recentRuns(keep = KEPT_FINISHED_RUNS): RecentRuns {
  const inFlight = new Map<string, number>();
  // Most recent last; a Map keeps insertion order.
  const finished = new Map<string, true>();
  return {
    begin(runId) {
      inFlight.set(runId, (inFlight.get(runId) ?? 0) + 1);
    },
    end(runId) {
      const left = (inFlight.get(runId) ?? 1) - 1;
      if (left > 0) inFlight.set(runId, left);
      else inFlight.delete(runId);
      finished.delete(runId);
      finished.set(runId, true);
      while (finished.size > keep) finished.delete(finished.keys().next().value!);
      return new Set([...inFlight.keys(), ...finished.keys()]);
    },
  };
}

/** Whatever keeps per-run copies on the scratch disk (source-access.ts, member-access.ts). */
export interface RunCopies {
  retain(runIds: ReadonlySet<string>): Promise<void>;
}

/**
 * Wraps each metatile's work: when it ends, the copies of runs neither in flight nor among the
 * last few are freed. A failed removal is reported and the work's result kept.
 */
export function freeingOldCopies(
  caches: readonly RunCopies[],
  onError: (error: unknown) => void,
  recent: RecentRuns = recentRuns(),
) {
  return async <T>(runId: string, work: () => Promise<T>): Promise<T> => {
    recent.begin(runId);
    try {
      return await work();
    } finally {
      const keep = recent.end(runId);
      await Promise.all(caches.map((c) => c.retain(keep))).catch(onError);
    }
  };
}
