import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { intOption, positiveDecimal } from '../../../../local/cli/io.js';

describe('intOption (issue 20 #12)', () => {
  const zoom = intOption(0, 22);
  it('takes whole decimal numbers in range', () => {
    expect(zoom('0')).toBe(0);
    expect(zoom('16')).toBe(16);
  });
  it.each(['', ' ', '0x10', '1e1', '1.5', '-1', '+3', ' 9', '23', '0b1', 'Infinity'])(
    'refuses %j',
    (value) => {
      expect(() => zoom(value)).toThrow(InvalidArgumentError);
    },
  );
});

describe('positiveDecimal (issue 20 #12: geohub cost)', () => {
  it('takes plain positive decimals', () => {
    expect(positiveDecimal('0.5')).toBe(0.5);
    expect(positiveDecimal('12')).toBe(12);
  });
  it.each(['', '0', '0.0', '0x10', '1e1', '-1', '+3', ' 2', '.5', '1.', 'Infinity', '1,5'])(
    'refuses %j',
    (value) => {
      expect(() => positiveDecimal(value)).toThrow(InvalidArgumentError);
    },
  );
});
