import type { RunCounters } from '../../lib/model/run.js';

/** A copy of a run's outputs started with a promise of when its non-tile outputs are written. */
export type StartCopy = (outputsReady: Promise<void>) => Promise<number>;

/**
 * The copy into --out, started as soon as every sub-tile of the run is done rather than when the
 * run ends: the tiles are then final (each object is written before its marker), and copying
 * them overlaps the finalize, which writes only the run's other outputs (mosaic, STAC, summary).
 * Those are copied once the run has ended (`finish`). On a 700-tile run the finalize and the
 * tiles' copy each took about half a second and a second, one after the other.
 */
export function earlyTileCopy(start: StartCopy) {
  let copy: Promise<number> | undefined;
  let settle!: { resolve: () => void; reject: (reason: unknown) => void };
  const outputsReady = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  outputsReady.catch(() => {});
  return {
    /** Starts the copy the first time `counters` say every sub-tile is done. */
    observe(counters: RunCounters | undefined): void {
      if (copy || !counters || counters.total === 0 || counters.done !== counters.total) return;
      copy = start(outputsReady);
      copy.catch(() => {});
    },
    /** The run has ended: the copy started early, now allowed to copy the outputs; undefined if none started. */
    finish(): Promise<number> | undefined {
      settle.resolve();
      return copy;
    },
    /** The run is followed no further: a copy started early stops before the outputs and is waited for. */
    async abandon(reason: unknown): Promise<void> {
      settle.reject(reason);
      await copy?.catch(() => {});
    },
  };
}
