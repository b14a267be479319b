import type { Bbox } from '../tiling/bbox.js';

/**
 * Upper bound on bins, whatever the box and bin size: 4 M bins are 128 MB of sums. A tile's box
 * at one bin per output pixel needs well under 1 M; more means a degenerate CRS scale.
 */
export const MAX_BINS = 4_000_000;

/**
 * Points averaged per square bin of a grid over `bbox`: each non-empty bin yields one point at
 * the mean X, Y and Z of the points that fell in it. With bins the size of an output pixel, the
 * interpolation downstream sees at most one point per pixel however dense the cloud is, so the
 * work per tile is bounded (a zoom-12 tile of a dense survey holds millions of points) and the
 * mean keeps the sub-pixel position of sparse points.
 */
export class PointBins {
  readonly binSize: number;
  readonly columns: number;
  readonly rows: number;
  private readonly sumX: Float64Array;
  private readonly sumY: Float64Array;
  private readonly sumZ: Float64Array;
  private readonly counts: Uint32Array;
  private filled = 0;
  private added = 0;

  constructor(
    readonly bbox: Bbox,
    binSize: number,
  ) {
    const [minX, minY, maxX, maxY] = bbox;
    if (!(maxX >= minX && maxY >= minY) || !(binSize > 0)) {
      throw new RangeError(`cannot bin [${bbox.join(', ')}] by ${binSize}`);
    }
    // Coarser bins rather than an allocation nobody can afford.
    const area = Math.max(maxX - minX, binSize) * Math.max(maxY - minY, binSize);
    this.binSize = Math.max(binSize, Math.sqrt(area / MAX_BINS));
    this.columns = Math.max(1, Math.ceil((maxX - minX) / this.binSize));
    this.rows = Math.max(1, Math.ceil((maxY - minY) / this.binSize));
    const size = this.columns * this.rows;
    this.sumX = new Float64Array(size);
    this.sumY = new Float64Array(size);
    this.sumZ = new Float64Array(size);
    this.counts = new Uint32Array(size);
  }

  /** Adds a point; points outside the box (or not finite) are ignored. Returns whether it was kept. */
  add(x: number, y: number, z: number): boolean {
    const [minX, minY, maxX, maxY] = this.bbox;
    if (!(x >= minX && x <= maxX && y >= minY && y <= maxY) || !Number.isFinite(z)) return false;
    const column = Math.min(this.columns - 1, Math.floor((x - minX) / this.binSize));
    const row = Math.min(this.rows - 1, Math.floor((y - minY) / this.binSize));
    const i = row * this.columns + column;
    if (this.counts[i] === 0) this.filled += 1;
    this.counts[i]! += 1;
    this.sumX[i]! += x;
    this.sumY[i]! += y;
    this.sumZ[i]! += z;
    this.added += 1;
    return true;
  }

  /** Non-empty bins: the number of points `points()` yields. */
  get size(): number {
    return this.filled;
  }

  /** Points added (inside the box). */
  get pointCount(): number {
    return this.added;
  }

  /** One mean point per non-empty bin, row by row from the south-west. */
  *points(): Generator<readonly [x: number, y: number, z: number]> {
    for (let i = 0; i < this.counts.length; i += 1) {
      const n = this.counts[i]!;
      if (n > 0) yield [this.sumX[i]! / n, this.sumY[i]! / n, this.sumZ[i]! / n];
    }
  }
}
