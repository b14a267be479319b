import { tileBounds } from '../tiling/tile-bounds.js';
import { TILE_PIXELS } from '../tiling/web-mercator.js';

export interface MosaicBands {
  readonly count: number;
  /** GDAL data type name (Byte, Float32, …). */
  readonly dataType: string;
  readonly nodata: number | null;
  /** Each band's colour interpretation (`Red`, …, `Alpha`), where the tiles say it (display tiles). */
  readonly colorInterp?: readonly string[];
}

/** A rectangle of tiles at one zoom, inclusive. */
export interface TileRange {
  readonly z: number;
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** One source of a VRT: a file (relative to the VRT) placed at a tile offset. */
export interface VrtSource {
  readonly href: string;
  /** Offset in tiles from the range's north-west corner. */
  readonly col: number;
  readonly row: number;
  /** Size of the source in tiles. */
  readonly cols: number;
  readonly rows: number;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A GDAL VRT over a range of tiles, written as a stream of chunks (docs/architecture.md,
 * "Finalize and outputs"). Written by hand because the finalize Lambda has no GDAL: every tile of a run
 * shares one grid (same zoom, 256×256, EPSG:3857), so each source is a SimpleSource at its
 * pixel offset. Its SourceProperties let GDAL open the mosaic without opening any source, so
 * a mosaic of a million tiles — a top-level VRT over one VRT per block of tiles — opens in
 * well under a second; a source is read only when its pixels are.
 */
export function* vrtChunks(
  range: TileRange,
  bands: MosaicBands,
  sources: () => Iterable<VrtSource>,
): Generator<string> {
  const origin = tileBounds(range.z, range.x0, range.y0);
  const pixel = (origin.maxX - origin.minX) / TILE_PIXELS;
  const width = (range.x1 - range.x0 + 1) * TILE_PIXELS;
  const height = (range.y1 - range.y0 + 1) * TILE_PIXELS;
  const nodata = bands.nodata === null ? '' : `    <NoDataValue>${bands.nodata}</NoDataValue>\n`;
  yield `<VRTDataset rasterXSize="${width}" rasterYSize="${height}">\n` +
    `  <SRS dataAxisToSRSAxisMapping="1,2">EPSG:3857</SRS>\n` +
    `  <GeoTransform>${origin.minX}, ${pixel}, 0, ${origin.maxY}, 0, ${-pixel}</GeoTransform>\n`;
  for (let band = 1; band <= bands.count; band++) {
    const interp = bands.colorInterp?.[band - 1];
    yield `  <VRTRasterBand dataType="${bands.dataType}" band="${band}">\n${nodata}${interp ? `    <ColorInterp>${interp}</ColorInterp>\n` : ''}`;
    let chunk = '';
    for (const s of sources()) {
      const w = s.cols * TILE_PIXELS;
      const h = s.rows * TILE_PIXELS;
      // Tiles are 256-pixel blocks; a block VRT reads in 128-pixel blocks (GDAL's VRT default).
      const block = s.cols === 1 && s.rows === 1 ? TILE_PIXELS : 128;
      chunk +=
        `    <SimpleSource>\n` +
        `      <SourceFilename relativeToVRT="1">${escapeXml(s.href)}</SourceFilename>\n` +
        `      <SourceBand>${band}</SourceBand>\n` +
        `      <SourceProperties RasterXSize="${w}" RasterYSize="${h}" DataType="${bands.dataType}" BlockXSize="${block}" BlockYSize="${block}"/>\n` +
        `      <SrcRect xOff="0" yOff="0" xSize="${w}" ySize="${h}"/>\n` +
        `      <DstRect xOff="${s.col * TILE_PIXELS}" yOff="${s.row * TILE_PIXELS}" xSize="${w}" ySize="${h}"/>\n` +
        `    </SimpleSource>\n`;
      if (chunk.length > 1 << 16) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}  </VRTRasterBand>\n`;
  }
  yield `</VRTDataset>\n`;
}
