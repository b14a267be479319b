import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT, portOf } from '../../../../local/cli/api-client.js';
import { CliError } from '../../../../local/cli/cli-error.js';

describe('portOf (issue 20 #12: GEOHUB_PORT as strict as --port)', () => {
  it('takes --port, else a whole decimal GEOHUB_PORT, else the default', () => {
    expect(portOf({ GEOHUB_PORT: '5000' }, 6000)).toBe(6000);
    expect(portOf({ GEOHUB_PORT: '5000' })).toBe(5000);
    expect(portOf({})).toBe(DEFAULT_PORT);
  });
  it.each(['', '0x10', '1e3', '80.5', '-1', '0', '65536', ' 80'])(
    'refuses GEOHUB_PORT=%j in one line',
    (value) => {
      expect(() => portOf({ GEOHUB_PORT: value })).toThrow(CliError);
      expect(() => portOf({ GEOHUB_PORT: value })).toThrow(
        `GEOHUB_PORT=${value}: expected a whole number from 1 to 65535`,
      );
    },
  );
});
