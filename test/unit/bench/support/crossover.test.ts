import { describe, expect, it } from 'vitest';
import { crossover } from '../../../../bench/support/crossover.js';

describe('crossover: the job size from which geohub run is within the target of the raw tool', () => {
  it('fits the fixed cost and the per-tile times from two job sizes', () => {
    // geohub: 8 s fixed + 10 s per 1,000 tiles; raw: 36 s per 1,000 tiles.
    const c = crossover(
      { tiles: 256, withStartupSeconds: 8 + 2.56, rawSeconds: 9.216 },
      { tiles: 1024, withStartupSeconds: 8 + 10.24, rawSeconds: 36.864 },
      0.8,
    );
    expect(c).toMatchObject({ fixedSeconds: 8, perThousandSeconds: 10, rawPerThousandSeconds: 36 });
    // 8 + 0.01·n ≤ 0.8·0.036·n ⇔ n ≥ 8 / 0.0188 = 425.5…
    expect(c.fromTiles).toBe(426);
  });

  it('never, when geohub per tile is not faster than the target share of the raw tool', () => {
    const c = crossover(
      { tiles: 100, withStartupSeconds: 10, rawSeconds: 3 },
      { tiles: 400, withStartupSeconds: 19, rawSeconds: 12 },
      0.8,
    );
    expect(c.fromTiles).toBeUndefined();
  });

  it('refuses two sizes that cannot fit a line', () => {
    expect(() =>
      crossover(
        { tiles: 5, withStartupSeconds: 1, rawSeconds: 1 },
        { tiles: 5, withStartupSeconds: 2, rawSeconds: 2 },
        0.8,
      ),
    ).toThrow(/more sub-tiles/);
  });
});
