import type { RunMembers } from '../collection/run-members.js';
import type { Metatile } from '../model/metatile.js';
import type { LevelCover } from '../pyramid/level-blocks.js';
import type { SourceHeader } from '../source/source-header.js';
import type { Bbox } from '../tiling/bbox.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import type { SourceValues } from './display-params.js';

/**
 * What the split knows of its input once planned, whether one file or a collection: the kind of
 * data, where it lands on the grid, the metatiles to write, and what reading it cost.
 */
export interface PlannedSource {
  readonly kind: SourceHeader['kind'];
  /** The source's own date (a collection: its first member's). */
  readonly datetime?: string;
  readonly warnings: readonly string[];
  readonly zoom: number;
  readonly nativeZoom: number;
  readonly bbox3857: Bbox;
  readonly total: number;
  /** The tile ranges the zoom's tiles lie in, per file: a pyramid's base cover. */
  readonly cover: LevelCover;
  /** Its values' type and range: what its display tiles are made from (display-params.ts). */
  readonly values: SourceValues;
  /** Sub-tiles per metatile (metatile-size.ts). */
  readonly tilesPerMessage: number;
  readonly headerBytesRead: number;
  /** A collection's members, written to `runs/<runId>/members.json` before the manifest. */
  readonly members?: RunMembers;
  /** The metatiles to enqueue, in blocks aligned on the grid when the run is a pyramid (`aligned`). */
  metatiles(tileId: (tile: TileCoord) => string): Iterable<Metatile>;
}
