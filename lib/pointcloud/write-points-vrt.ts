import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';

/** Points written for GDAL: CSVs and the OGR VRT that reads them as one layer of 3D points in EPSG:3857. */
export interface PointsVrt {
  /** One CSV per CRS the points came in (points.csv, points-1.csv, …). */
  readonly csv: readonly string[];
  readonly vrt: string;
  /** The layer name to give gdal_grid's -l. */
  readonly layer: string;
  readonly count: number;
}

/** Points in one CRS (a collection may span several): coordinates as the files hold them. */
export interface PointLayer {
  readonly points: Iterable<readonly [number, number, number]>;
  readonly srs: string;
}

const LAYER = 'points';
const LINES_PER_WRITE = 8192;

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const csvName = (index: number) => (index === 0 ? `${LAYER}.csv` : `${LAYER}-${index}.csv`);

/** One CSV's points (columns x, y, z in `srs`), reprojected on the fly to EPSG:3857 by a warped layer. */
function warpedLayer(name: string, csv: string, srs: string, indent: string): string[] {
  return [
    '<OGRVRTWarpedLayer>',
    `  <OGRVRTLayer name="${xml(name)}">`,
    `    <SrcDataSource relativeToVRT="1">${xml(csv)}</SrcDataSource>`,
    `    <SrcLayer>${xml(csv.replace(/\.csv$/, ''))}</SrcLayer>`,
    '    <GeometryType>wkbPoint25D</GeometryType>',
    `    <LayerSRS>${xml(srs)}</LayerSRS>`,
    '    <GeometryField encoding="PointFromColumns" x="x" y="y" z="z"/>',
    '  </OGRVRTLayer>',
    '  <TargetSRS>EPSG:3857</TargetSRS>',
    '</OGRVRTWarpedLayer>',
  ].map((line) => `${indent}${line}`);
}

/**
 * The OGR VRT over the CSVs: one warped layer named `points`, or, for points in several CRSs (a
 * collection across two UTM zones), a union layer of one warped layer per CRS.
 */
export function pointsVrtXml(layers: readonly { readonly csv: string; readonly srs: string }[]): string {
  const body =
    layers.length === 1
      ? warpedLayer(LAYER, layers[0]!.csv, layers[0]!.srs, '  ')
      : [
          `  <OGRVRTUnionLayer name="${LAYER}">`,
          ...layers.flatMap((l, i) => warpedLayer(`${LAYER}${i}`, l.csv, l.srs, '    ')),
          '  </OGRVRTUnionLayer>',
        ];
  return ['<OGRVRTDataSource>', ...body, '</OGRVRTDataSource>', ''].join('\n');
}

async function writeCsv(path: string, points: Iterable<readonly [number, number, number]>): Promise<number> {
  const out = createWriteStream(path);
  let count = 0;
  try {
    let lines: string[] = ['x,y,z'];
    const flush = async () => {
      if (!out.write(`${lines.join('\n')}\n`))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      lines = [];
    };
    for (const [x, y, z] of points) {
      // Shortest round-trip decimal: no precision lost, no exponent for coordinate magnitudes.
      lines.push(`${x},${y},${z}`);
      count += 1;
      if (lines.length >= LINES_PER_WRITE) await flush();
    }
    if (lines.length > 0) await flush();
  } finally {
    out.end();
    await finished(out);
  }
  return count;
}

/**
 * Writes the points (source CRS coordinates, Z untouched) as CSVs with their `points.vrt` in
 * `dir`. Reprojection is left to GDAL (PROJ), like PDAL's filters.reprojection does it, so both
 * engines place points identically; gdal_grid reads the VRT directly.
 */
export async function writePointsVrt(dir: string, layers: readonly PointLayer[]): Promise<PointsVrt> {
  if (layers.length === 0) throw new RangeError('writePointsVrt needs at least one layer of points');
  const names = layers.map((_, i) => csvName(i));
  let count = 0;
  for (const [i, layer] of layers.entries()) count += await writeCsv(join(dir, names[i]!), layer.points);
  const vrt = join(dir, `${LAYER}.vrt`);
  await writeFile(vrt, pointsVrtXml(layers.map((l, i) => ({ csv: names[i]!, srs: l.srs }))));
  return { csv: names.map((n) => join(dir, n)), vrt, layer: LAYER, count };
}
