import { describe, expect, it } from 'vitest';
import { TileSet } from '../../../../lib/coordination/tile-set.js';

describe('TileSet', () => {
  it('keeps extents and blocks of 262,144 tiles, past where spreading an array into Math.min throws', () => {
    const side = 512;
    const set = new TileSet();
    // Added in a scrambled order (a stride coprime with the count), as parallel reads deliver them.
    const n = side * side;
    for (let k = 0, i = 0; k < n; k++, i = (i + 104_729) % n)
      set.add(18, 1000 + (i % side), 2000 + Math.floor(i / side), i);
    expect(set.count).toBe(n);
    expect([set.minX, set.maxX, set.minY, set.maxY]).toEqual([1000, 1000 + side - 1, 2000, 2000 + side - 1]);

    const blocks = set.blocks(64);
    // 1000..1511 spans blocks 15..23 of x, 2000..2511 spans 31..39 of y.
    expect(blocks).toHaveLength(9 * 9);
    expect(blocks.reduce((sum, b) => sum + b.indices.length, 0)).toBe(n);
    let outside = 0;
    let outOfOrder = 0;
    for (const b of blocks) {
      let previous = -1;
      for (const i of b.indices) {
        const x = set.x(i);
        const y = set.y(i);
        if (Math.floor(x / 64) !== b.bx || Math.floor(y / 64) !== b.by) outside += 1;
        // Row order inside a block.
        if (y * 1e6 + x <= previous) outOfOrder += 1;
        previous = y * 1e6 + x;
      }
    }
    expect({ outside, outOfOrder }).toEqual({ outside: 0, outOfOrder: 0 });
    expect(() => set.add(17, 0, 0, 1)).toThrow(/one zoom/);
  });
});
