import { InvalidArgumentError } from 'commander';
import { parseZoomRange } from '../../lib/split/zoom-range.js';

/** Where a command writes: injected so tests can capture it. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  /** Exit code the command asks for (0 unless set). */
  exitCode: number;
}

/** One JSON object on stdout with --json; the human text otherwise. */
export function emit(io: CliIo, json: boolean | undefined, value: unknown, human: () => string): void {
  io.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human()}\n`);
}

export function intOption(min: number, max: number) {
  return (value: string): number => {
    // Digits only: Number() would take '' as 0, '0x10' as 16 and '1e1' as 10.
    const n = /^[0-9]{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

/** The help of every `--zoom`: one level or a pyramid's levels. */
export const ZOOM_HELP =
  'XYZ zoom level, or a range min-max for a pyramid (the max warped from the source, each lower level made from ' +
  'the one above, as gdal2tiles.py does); default: the one level closest to the source resolution, or for ' +
  'display tiles ("format": "png" or "webp" in the job) the pyramid from it down to where the footprint fits one tile';

/** A commander parser for `--zoom`: a whole number 0-22, or a range "min-max" (low to high). */
export function zoomOption(value: string): number | string {
  if (!value.includes('-')) {
    try {
      return intOption(0, 22)(value);
    } catch {
      throw new InvalidArgumentError('expected a zoom level from 0 to 22, or a range min-max such as 10-17');
    }
  }
  const range = parseZoomRange(value);
  if (typeof range === 'string')
    throw new InvalidArgumentError(
      `expected a zoom level from 0 to 22, or a range min-max such as 10-17 (${range})`,
    );
  return value;
}

/** A plain decimal (digits, at most one point): Number() would take '0x10', '1e1' and ' 2'. */
export const DECIMAL = /^[0-9]{1,9}(\.[0-9]{1,9})?$/;

/** A commander parser for a positive plain decimal number (a price, a ratio, minutes). */
export function positiveDecimal(value: string): number {
  const n = DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!(n > 0))
    throw new InvalidArgumentError(`expected a positive decimal number such as 0.5, got ${value}`);
  return n;
}
