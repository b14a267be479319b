/** ASPRS LAS class 2: ground. */
export const GROUND_CLASS = 2;
/** Class 0 (created, never classified) and 1 (unassigned): no classifier has run over these points. */
const UNCLASSIFIED = new Set([0, 1]);

/**
 * Which points make the DTM of a tile:
 * - `ground`: the points of class 2, when the tile's neighbourhood has any;
 * - `unclassified`: no classifier ever ran here (only classes 0 and 1), so ground must be found
 *   first (PDAL: filters.smrf) or, without PDAL, all points are used: a surface model rather
 *   than a terrain model where there are trees or roofs, which is logged;
 * - `none`: nothing to interpolate: no points at all, or the points are classified and none is
 *   ground (the ground is not observed here, under a large roof say; all points would make a
 *   roof into terrain).
 */
export type GroundSelection = 'ground' | 'unclassified' | 'none';

/** Decides from the class histogram (count per class 0–255) of the tile's buffered neighbourhood. */
export function chooseGroundSelection(classCounts: ArrayLike<number>): GroundSelection {
  if ((classCounts[GROUND_CLASS] ?? 0) > 0) return 'ground';
  let total = 0;
  for (let c = 0; c < classCounts.length; c += 1) {
    const n = classCounts[c] ?? 0;
    if (n > 0 && !UNCLASSIFIED.has(c)) return 'none';
    total += n;
  }
  return total > 0 ? 'unclassified' : 'none';
}
