import type { PyramidFigures } from './pyramid.js';
import { showSpread } from './support/stats.js';

/** The full-pyramid comparison with gdal2tiles.py's default job, for the benchmark document. */
export function pyramidTable(rows: readonly PyramidFigures[]): string {
  return [
    '### A full pyramid against `gdal2tiles.py`',
    '',
    '`gdal2tiles.py --xyz --processes=2` with every default (its zoom range, average resampling, PNG, its web viewers) against `geohub run --zoom <the same range>` with `{"format": "png"}` (the base warped once, each lower level from the one above; a PMTiles archive, mosaics and STAC besides): both whole commands, wall clock, alternated run by run (bench/pyramid.ts).',
    '',
    '| job | zooms | tiles (geohub / gdal2tiles) | geohub run | gdal2tiles.py | s per 1,000 tiles (geohub / gdal2tiles) | ratio |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.job} | ${r.zooms} | ${r.tiles.geohub} / ${r.tiles.gdal2tiles} | ${showSpread(r.seconds.geohub)} | ${showSpread(r.seconds.gdal2tiles)} | ${r.perThousand.geohub} / ${r.perThousand.gdal2tiles} | ×${r.ratio} |`,
    ),
  ].join('\n');
}
