/** One XYZ tile: zoom, column (from the west), row (from the north). */
export interface TileCoord {
  readonly z: number;
  readonly x: number;
  readonly y: number;
}
