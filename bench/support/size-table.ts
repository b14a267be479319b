import type { OverheadFigures } from '../overhead.js';
import { againstPeer, showRatio, smallJob } from './peer-rows.js';
import { showSpread } from './stats.js';

/** Issue 40's job sizes: a job of about 500 tiles is one of 300 to 1,000. */
const ABOUT_500 = { from: 300, to: 1000 } as const;

/** The size's own targets: the small job's times, about 500 tiles' ratios; none for other sizes. */
function verdict(o: OverheadFigures, cold: number, onUp: number | undefined): string {
  if (o.tiles < ABOUT_500.from || o.tiles > ABOUT_500.to) return smallJob(o);
  const one = (r: number) => (r <= 1 ? `met (${showRatio(r)})` : `**not met** (${showRatio(r)})`);
  return `about 500 tiles, ≤ 1.0 with start-up: cold ${one(cold)}${onUp === undefined ? '' : `; on a running up ${one(onUp)}`}`;
}

/**
 * `geohub run` against `gdal2tiles.py --processes=<workers>` by job size (issue 40): the two whole
 * commands on the same raster and zoom, cold and with a `geohub up` running, smallest job first;
 * per 1,000 tiles where the two made a different number of tiles (againstPeer). Every figure is
 * one of the rows above, gathered where the sizes can be read side by side.
 */
export function sizeTable(overhead: readonly OverheadFigures[], w: number, older = ''): string {
  const rows = [...overhead]
    .sort((a, b) => a.tiles - b.tiles)
    .map((o) => {
      const r = againstPeer(o, o.gdal2tiles, o.gdal2tiles.tiles);
      const perThousand = r.same ? '' : ' (per 1,000 tiles)';
      const up = o.geohub.withUp ? showSpread(o.geohub.withUp) : '—';
      const upRatio = r.onUp === undefined ? '—' : `${showRatio(r.onUp)}${perThousand}`;
      return `| ${o.raster}, zoom ${o.zoom} | ${o.tiles} / ${o.gdal2tiles.tiles} | ${showSpread(o.gdal2tiles)} | ${showSpread(o.geohub.withStartup)} | ${showRatio(r.with)}${perThousand} | ${up} | ${upRatio} | ${verdict(o, r.with, r.onUp)} |`;
    });
  return [
    '### `geohub run` against `gdal2tiles.py` by job size',
    '',
    `The whole \`geohub run\` command against the whole \`gdal2tiles.py --xyz --processes=${w}\` command (each with its start-up) on the same raster and zoom, cold and with a \`geohub up\` running; the figures of the rows above, smallest job first${older}. Issue 40's large-job ratio (×0.64 at 4,275 tiles) was measured on another raster, a textured RGB one: it is not comparable with these.`,
    '',
    '| job | sub-tiles (geohub / gdal2tiles) | gdal2tiles.py | geohub run, cold | ratio | geohub run on a running up | ratio | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
