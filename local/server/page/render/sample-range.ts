import { z } from 'zod';
import type { ValueRange } from './colour-ramp.js';
import type { GdalTool, GdalToolOptions } from './gdal-tools.js';

const statsSchema = z.looseObject({
  bands: z
    .array(
      z.looseObject({
        minimum: z.number().optional(),
        maximum: z.number().optional(),
        mean: z.number().optional(),
        stdDev: z.number().optional(),
      }),
    )
    .min(1),
});

interface BandStats {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly stdDev: number;
}

/** Band 1's statistics of one tile, or undefined when it is all nodata. */
export async function tileStats(gdal: GdalTool, file: string, options: GdalToolOptions) {
  const out = await gdal({ file: 'gdalinfo', args: ['-json', '-stats', file] }, options);
  const band = statsSchema.parse(JSON.parse(out)).bands[0]!;
  const { minimum: min, maximum: max, mean, stdDev } = band;
  if (min === undefined || max === undefined || mean === undefined || stdDev === undefined) return undefined;
  return { min, max, mean, stdDev } satisfies BandStats;
}

/**
 * The range a ramp spans for a run: the pooled mean ± 2.5 standard deviations of the sampled
 * tiles, within their extremes, so that a few outliers do not wash out the ramp.
 */
export function pooledRange(stats: readonly BandStats[]): ValueRange | undefined {
  if (stats.length === 0) return undefined;
  const mean = stats.reduce((s, b) => s + b.mean, 0) / stats.length;
  const square = stats.reduce((s, b) => s + b.stdDev ** 2 + b.mean ** 2, 0) / stats.length;
  const sd = Math.sqrt(Math.max(0, square - mean ** 2));
  const min = Math.max(Math.min(...stats.map((b) => b.min)), mean - 2.5 * sd);
  const max = Math.min(Math.max(...stats.map((b) => b.max)), mean + 2.5 * sd);
  return max > min ? { min, max } : { min: min - 0.5, max: min + 0.5 };
}

/** At most `count` items spread evenly over `items` (first and last included). */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))]!);
}
