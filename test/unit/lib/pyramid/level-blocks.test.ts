import { describe, expect, it } from 'vitest';
import {
  blockAt,
  coverBelow,
  type LevelCover,
  levelBlocks,
  parentBlockOf,
} from '../../../../lib/pyramid/level-blocks.js';

const tiles = (cover: LevelCover, z: number) =>
  [...levelBlocks(cover, z)].flatMap((b) => b.tiles.map((t) => `${t.x}/${t.y}`));

describe('a pyramid level', () => {
  it('lists a range in blocks aligned on the grid, each tile once, row by row inside a block', () => {
    const cover: LevelCover = [[{ z: 5, minX: 2, minY: 3, maxX: 9, maxY: 4 }]];
    const blocks = [...levelBlocks(cover, 5)];
    expect(blocks.map((b) => `${b.bx}/${b.by}`)).toEqual(['0/0', '1/0', '2/0', '0/1', '1/1', '2/1']);
    expect(blocks[0]!.tiles.map((t) => `${t.x}/${t.y}`)).toEqual(['2/3', '3/3']);
    expect(blocks[3]!.tiles.map((t) => `${t.x}/${t.y}`)).toEqual(['2/4', '3/4']);
    expect(tiles(cover, 5)).toHaveLength(16);
    expect(new Set(tiles(cover, 5)).size).toBe(16);
  });

  it('is one level down exactly the parents of the level above, overlapping ranges once', () => {
    // Two sources, overlapping, one at the odd edge of a parent: every parent of a tile, no other.
    const cover: LevelCover = [
      [{ z: 6, minX: 5, minY: 7, maxX: 12, maxY: 9 }],
      [{ z: 6, minX: 11, minY: 8, maxX: 19, maxY: 8 }],
    ];
    const parents = new Set(
      tiles(cover, 6).map((t) =>
        t
          .split('/')
          .map((v) => Math.floor(Number(v) / 2))
          .join('/'),
      ),
    );
    expect(new Set(tiles(coverBelow(cover), 5))).toEqual(parents);
    expect(tiles(coverBelow(cover), 5)).toHaveLength(parents.size);
  });

  it('puts a block under the parent block its tiles halve into: four children per parent', () => {
    const children = [
      [8, 8],
      [15, 8],
      [8, 15],
      [15, 15],
    ].map(([x, y]) => parentBlockOf({ z: 9, x: x!, y: y! }));
    expect(new Set(children.map((p) => `${p.z}/${p.bx}/${p.by}`))).toEqual(new Set(['8/1/1']));
    expect(parentBlockOf({ z: 9, x: 16, y: 7 })).toEqual({ z: 8, bx: 2, by: 0 });
  });

  it('finds no tile in a block the cover does not reach, and stops at the world edge', () => {
    const cover: LevelCover = [[{ z: 2, minX: 0, minY: 0, maxX: 3, maxY: 3 }]];
    expect(blockAt(cover, 2, 0, 0).tiles).toHaveLength(16);
    expect(blockAt([[{ z: 3, minX: 0, minY: 0, maxX: 1, maxY: 1 }]], 3, 1, 1).tiles).toEqual([]);
    expect(tiles([[{ z: 1, minX: 0, minY: 0, maxX: 1, maxY: 1 }]], 1)).toHaveLength(4);
  });
});
