import { tileBounds } from '../tiling/tile-bounds.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import { TILE_PIXELS } from '../tiling/web-mercator.js';

export interface MosaicBands {
  readonly count: number;
  /** GDAL data type name (Byte, Float32, …). */
  readonly dataType: string;
  readonly nodata: number | null;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The mosaic of a run's tiles as a GDAL VRT. Written by hand because the finalize Lambda has
 * no GDAL: the format is a small documented XML, and every tile shares one grid (same zoom,
 * 256×256, EPSG:3857), so each tile is a SimpleSource placed at its pixel offset. Paths are
 * relative (`z/x/y.tif`), so the VRT works in S3 and in a local copy of the run alike.
 */
export function mosaicVrt(tiles: readonly TileCoord[], bands: MosaicBands): string {
  if (tiles.length === 0) throw new Error('a mosaic needs at least one tile');
  const z = tiles[0]!.z;
  if (tiles.some((t) => t.z !== z)) throw new Error('a mosaic needs tiles of one zoom');
  const minX = Math.min(...tiles.map((t) => t.x));
  const maxX = Math.max(...tiles.map((t) => t.x));
  const minY = Math.min(...tiles.map((t) => t.y));
  const maxY = Math.max(...tiles.map((t) => t.y));
  const origin = tileBounds(z, minX, minY);
  const pixel = (origin.maxX - origin.minX) / TILE_PIXELS;
  const width = (maxX - minX + 1) * TILE_PIXELS;
  const height = (maxY - minY + 1) * TILE_PIXELS;
  const nodata = bands.nodata === null ? '' : `    <NoDataValue>${bands.nodata}</NoDataValue>\n`;

  const bandXml = Array.from({ length: bands.count }, (_, i) => {
    const sources = tiles
      .map((t) => {
        const path = escapeXml(`${t.z}/${t.x}/${t.y}.tif`);
        return (
          `    <SimpleSource>\n` +
          `      <SourceFilename relativeToVRT="1">${path}</SourceFilename>\n` +
          `      <SourceBand>${i + 1}</SourceBand>\n` +
          `      <SourceProperties RasterXSize="${TILE_PIXELS}" RasterYSize="${TILE_PIXELS}" DataType="${bands.dataType}" BlockXSize="${TILE_PIXELS}" BlockYSize="${TILE_PIXELS}"/>\n` +
          `      <SrcRect xOff="0" yOff="0" xSize="${TILE_PIXELS}" ySize="${TILE_PIXELS}"/>\n` +
          `      <DstRect xOff="${(t.x - minX) * TILE_PIXELS}" yOff="${(t.y - minY) * TILE_PIXELS}" xSize="${TILE_PIXELS}" ySize="${TILE_PIXELS}"/>\n` +
          `    </SimpleSource>\n`
        );
      })
      .join('');
    return `  <VRTRasterBand dataType="${bands.dataType}" band="${i + 1}">\n${nodata}${sources}  </VRTRasterBand>\n`;
  }).join('');

  return (
    `<VRTDataset rasterXSize="${width}" rasterYSize="${height}">\n` +
    `  <SRS dataAxisToSRSAxisMapping="1,2">EPSG:3857</SRS>\n` +
    `  <GeoTransform>${origin.minX}, ${pixel}, 0, ${origin.maxY}, 0, ${-pixel}</GeoTransform>\n` +
    bandXml +
    `</VRTDataset>\n`
  );
}
