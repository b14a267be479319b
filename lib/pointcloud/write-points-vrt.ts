import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';

/** Points written for GDAL: a CSV and the OGR VRT that reads it as 3D points in EPSG:3857. */
export interface PointsVrt {
  readonly csv: string;
  readonly vrt: string;
  /** The layer name to give gdal_grid's -l. */
  readonly layer: string;
  readonly count: number;
}

const LAYER = 'points';
const LINES_PER_WRITE = 8192;

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The OGR VRT: CSV columns x, y, z in `srs`, reprojected on the fly to EPSG:3857 by a warped layer. */
export function pointsVrtXml(csvName: string, srs: string): string {
  return [
    '<OGRVRTDataSource>',
    '  <OGRVRTWarpedLayer>',
    `    <OGRVRTLayer name="${LAYER}">`,
    `      <SrcDataSource relativeToVRT="1">${xml(csvName)}</SrcDataSource>`,
    `      <SrcLayer>${xml(csvName.replace(/\.csv$/, ''))}</SrcLayer>`,
    '      <GeometryType>wkbPoint25D</GeometryType>',
    `      <LayerSRS>${xml(srs)}</LayerSRS>`,
    '      <GeometryField encoding="PointFromColumns" x="x" y="y" z="z"/>',
    '    </OGRVRTLayer>',
    '    <TargetSRS>EPSG:3857</TargetSRS>',
    '  </OGRVRTWarpedLayer>',
    '</OGRVRTDataSource>',
    '',
  ].join('\n');
}

/**
 * Writes the points (source CRS coordinates, Z untouched) as `points.csv` with its `points.vrt`
 * in `dir`. Reprojection is left to GDAL (PROJ), like PDAL's filters.reprojection does it, so
 * both engines place points identically; gdal_grid reads the VRT directly.
 */
export async function writePointsVrt(
  dir: string,
  points: Iterable<readonly [number, number, number]>,
  srs: string,
): Promise<PointsVrt> {
  const csv = join(dir, `${LAYER}.csv`);
  const vrt = join(dir, `${LAYER}.vrt`);
  const out = createWriteStream(csv);
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
  await writeFile(vrt, pointsVrtXml(`${LAYER}.csv`, srs));
  return { csv, vrt, layer: LAYER, count };
}
