import { describe, expect, it } from 'vitest';
import { colourReliefFile, RAMP_STOPS } from '../../../../../../local/server/page/render/colour-ramp.js';

describe('colourReliefFile', () => {
  it('spreads the ramp stops evenly over the range, with nodata transparent', () => {
    const lines = colourReliefFile({ min: 10, max: 50 }).trim().split('\n');
    expect(lines).toHaveLength(RAMP_STOPS.length + 1);
    const values = lines.slice(0, -1).map((l) => Number(l.split(' ')[0]));
    expect(values).toEqual([10, 20, 30, 40, 50]);
    expect(lines[0]).toBe(`10 ${RAMP_STOPS[0]!.join(' ')} 255`);
    expect(lines.at(-1)).toBe('nv 0 0 0 0');
  });

  it('still gives increasing values for a flat range', () => {
    const values = colourReliefFile({ min: 3, max: 3 })
      .trim()
      .split('\n')
      .slice(0, -1)
      .map((l) => Number(l.split(' ')[0]));
    for (let i = 1; i < values.length; i += 1) expect(values[i]!).toBeGreaterThan(values[i - 1]!);
  });
});
