import { execFileSync } from 'node:child_process';

/** XYZ tile of a WGS84 point (the standard slippy-map formulas, written independently of lib/). */
export function lonLatToTile(lon: number, lat: number, z: number): { x: number; y: number } {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return { x: Math.min(Math.max(x, 0), n - 1), y: Math.min(Math.max(y, 0), n - 1) };
}

/** Tiles covering a raster's WGS84 extent, from GDAL's own `gdalinfo -json`. */
export function gdalTileCover(file: string, z: number): { z: number; x: number; y: number }[] {
  const info = JSON.parse(execFileSync('gdalinfo', ['-json', file], { encoding: 'utf8' })) as {
    wgs84Extent: { coordinates: number[][][] };
  };
  const ring = info.wgs84Extent.coordinates[0]!;
  const lons = ring.map((c) => c[0]!);
  const lats = ring.map((c) => c[1]!);
  const nw = lonLatToTile(Math.min(...lons), Math.max(...lats), z);
  const se = lonLatToTile(Math.max(...lons), Math.min(...lats), z);
  const tiles: { z: number; x: number; y: number }[] = [];
  for (let x = nw.x; x <= se.x; x += 1) for (let y = nw.y; y <= se.y; y += 1) tiles.push({ z, x, y });
  return tiles;
}
