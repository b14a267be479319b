/** One job size's medians: `geohub run` from command to exit, and the raw tool over the same tiles. */
export interface JobSize {
  readonly tiles: number;
  readonly withStartupSeconds: number;
  readonly rawSeconds: number;
}

export interface Crossover {
  /** `geohub run`'s fixed cost (start-up, stop, copy) and its time per 1,000 sub-tiles, fitted. */
  readonly fixedSeconds: number;
  readonly perThousandSeconds: number;
  /** The raw tool's time per 1,000 sub-tiles. */
  readonly rawPerThousandSeconds: number;
  /** The job size from which `geohub run` takes at most `target` of the raw tool's time; undefined: never. */
  readonly fromTiles: number | undefined;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Where a fixed start-up stops mattering: a line through two job sizes of one raster (geohub's
 * time = fixed + per-tile × tiles; the raw tool's = per-tile × tiles, a process per tile and no
 * start-up) and the size from which geohub's time is within `target` × the raw tool's.
 */
export function crossover(small: JobSize, large: JobSize, target: number): Crossover {
  if (large.tiles <= small.tiles) throw new Error('the second job size must have more sub-tiles');
  const perTile = (large.withStartupSeconds - small.withStartupSeconds) / (large.tiles - small.tiles);
  const fixed = small.withStartupSeconds - perTile * small.tiles;
  const rawPerTile = (small.rawSeconds + large.rawSeconds) / (small.tiles + large.tiles);
  // fixed + perTile·n ≤ target·rawPerTile·n  ⇔  n ≥ fixed / (target·rawPerTile − perTile)
  const margin = target * rawPerTile - perTile;
  const fromTiles = margin <= 0 ? undefined : Math.max(0, Math.ceil(fixed / margin));
  return {
    fixedSeconds: round(fixed),
    perThousandSeconds: round(perTile * 1000),
    rawPerThousandSeconds: round(rawPerTile * 1000),
    fromTiles,
  };
}
