import { MosaicInputError } from './errors.js';

/**
 * The done tiles of one run, in typed arrays: a million tiles take about 16 MB, where a
 * million objects would take hundreds (docs/architecture.md, "Finalize and outputs"). Extents are kept
 * as tiles arrive, so nothing ever spreads a large array into Math.min/Math.max.
 */
export class TileSet {
  z = -1;
  count = 0;
  minX = Number.POSITIVE_INFINITY;
  maxX = Number.NEGATIVE_INFINITY;
  minY = Number.POSITIVE_INFINITY;
  maxY = Number.NEGATIVE_INFINITY;
  private xs = new Uint32Array(1024);
  private ys = new Uint32Array(1024);
  private sizes = new Float64Array(1024);

  add(z: number, x: number, y: number, bytes: number): void {
    if (this.z === -1) this.z = z;
    else if (z !== this.z)
      throw new MosaicInputError(`a run's tiles share one zoom: found ${z} beside ${this.z}`);
    if (this.count === this.xs.length) this.grow();
    this.xs[this.count] = x;
    this.ys[this.count] = y;
    this.sizes[this.count] = bytes;
    this.count += 1;
    if (x < this.minX) this.minX = x;
    if (x > this.maxX) this.maxX = x;
    if (y < this.minY) this.minY = y;
    if (y > this.maxY) this.maxY = y;
  }

  x(i: number): number {
    return this.xs[i]!;
  }
  y(i: number): number {
    return this.ys[i]!;
  }
  bytes(i: number): number {
    return this.sizes[i]!;
  }

  /**
   * The tiles grouped by square blocks of `size` × `size` tiles, each block's indices in row
   * order, blocks in row order: what the per-block mosaic VRTs and the STAC parts iterate.
   */
  blocks(size: number): { bx: number; by: number; indices: Uint32Array }[] {
    const groups = new Map<number, number[]>();
    const across = Math.floor(this.maxX / size) + 1;
    for (let i = 0; i < this.count; i++) {
      const key = Math.floor(this.ys[i]! / size) * across + Math.floor(this.xs[i]! / size);
      const list = groups.get(key) ?? [];
      if (list.length === 0) groups.set(key, list);
      list.push(i);
    }
    return [...groups.keys()]
      .sort((a, b) => a - b)
      .map((key) => {
        const indices = Uint32Array.from(groups.get(key)!);
        indices.sort((a, b) => this.ys[a]! - this.ys[b]! || this.xs[a]! - this.xs[b]!);
        groups.delete(key);
        return { bx: key % across, by: Math.floor(key / across), indices };
      });
  }

  private grow(): void {
    const n = this.xs.length * 2;
    const xs = new Uint32Array(n);
    const ys = new Uint32Array(n);
    const sizes = new Float64Array(n);
    xs.set(this.xs);
    ys.set(this.ys);
    sizes.set(this.sizes);
    this.xs = xs;
    this.ys = ys;
    this.sizes = sizes;
  }
}
