import type { LevelCover } from '../../lib/pyramid/level-blocks.js';
import { lowerLevelTiles } from '../../lib/pyramid/pyramid-plan.js';
import { zoomLevels } from '../../lib/split/job-params.js';

export interface PlannedLevels {
  readonly minZoom: number;
  /** Sub-tiles of each level, the base first: what the split will list. */
  readonly levels: readonly { readonly zoom: number; readonly tiles: number }[];
  readonly total: number;
}

/** `geohub plan` of a pyramid: the base level as planned, each lower one as the split makes it. */
export function planLevels(
  cover: LevelCover,
  baseZoom: number,
  baseTiles: number,
  zoom: number | string | undefined,
): PlannedLevels {
  const minZoom = zoomLevels(zoom)?.min ?? baseZoom;
  const lower = lowerLevelTiles({ minZoom, maxZoom: baseZoom, base: cover, tilesPerMessage: 16 });
  const levels = [
    { zoom: baseZoom, tiles: baseTiles },
    ...[...lower.entries()].sort(([a], [b]) => b - a).map(([z, tiles]) => ({ zoom: z, tiles })),
  ];
  return { minZoom, levels, total: levels.reduce((n, l) => n + l.tiles, 0) };
}

/** The line a human reads: each level's count, when there are several. */
export function levelsLine(planned: PlannedLevels): string | undefined {
  if (planned.levels.length < 2) return undefined;
  const list = planned.levels.map((l) => `${l.tiles.toLocaleString('en-US')} at ${l.zoom}`).join(', ');
  return `pyramid of zooms ${planned.minZoom}-${planned.levels[0]!.zoom}: ${planned.total.toLocaleString('en-US')} sub-tiles (${list}), each lower level made from the one above`;
}
