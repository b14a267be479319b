import { TooManyTilesError } from './errors.js';

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Refuses a pyramid whose levels together pass the cap on sub-tiles per run (the lower levels
 * add up to a third of the base), naming each level's count.
 */
export function checkPyramidSize(
  baseTiles: number,
  lower: ReadonlyMap<number, number>,
  where: string,
  maxTiles: number,
): void {
  const total = [...lower.values()].reduce((n, c) => n + c, baseTiles);
  if (total <= maxTiles) return;
  const levels = [...lower.entries()].map(([z, n]) => `${fmt(n)} at zoom ${z}`).join(', ');
  throw new TooManyTilesError(
    `${where} needs ${fmt(total)} sub-tiles over its levels (${fmt(baseTiles)} at the base, ${levels}), ` +
      `more than the cap of ${fmt(maxTiles)}; choose a lower zoom range in the .job.json sidecar`,
  );
}
