import type { Bounds } from '../tiling/tile-bounds.js';
import { cropToBuffered, type PdalStage } from './pdal-dtm-pipeline.js';

/**
 * The PDAL pipeline that counts the classes of the points near a tile, for files the extractor
 * cannot decode (waveform LAZ): read → crop to the buffered tile → filters.stats counting
 * Classification. Run with `pdal pipeline <file> --metadata <json>`; classCounts() reads the answer.
 */
export function pdalClassProbe(
  source: string,
  buffered: Bounds,
  sourceSrs?: string,
): { pipeline: PdalStage[] } {
  return {
    pipeline: [
      {
        type: 'readers.las',
        filename: source,
        ...(sourceSrs === undefined ? {} : { override_srs: sourceSrs }),
      },
      cropToBuffered(buffered),
      { type: 'filters.stats', dimensions: 'Classification', count: 'Classification' },
    ],
  };
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/**
 * The count of points per class (index 0–255) from PDAL's pipeline metadata: filters.stats lists
 * them as "value/count" strings (StatsFilter: `std::to_string(value) + "/" + count`). No points
 * near the tile: no counts, all zero.
 */
export function classCounts(metadata: unknown): Float64Array {
  const counts = new Float64Array(256);
  const stages = (metadata as { stages?: Record<string, unknown> } | undefined)?.stages;
  for (const statistic of asArray(
    (stages?.['filters.stats'] as { statistic?: unknown } | undefined)?.statistic,
  )) {
    const s = statistic as { name?: unknown; counts?: unknown };
    if (s.name !== 'Classification') continue;
    for (const entry of asArray(s.counts)) {
      const [value, count] = String(entry).split('/').map(Number);
      if (Number.isInteger(value) && value! >= 0 && value! < 256 && Number.isFinite(count))
        counts[value!] += count!;
    }
  }
  return counts;
}
