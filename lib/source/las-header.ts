import type { Header } from 'copc/lib/las/header.js';
import { Vlr } from 'copc/lib/las/vlr.js';
import { bboxOfPoints } from '../tiling/bbox.js';
import type { BlockReader } from './block-reader.js';
import { CorruptHeaderError, TruncatedSourceError } from './errors.js';
import { checkPointCloud } from './header-limits.js';
import { crsFromLasVlrs } from './las-crs.js';
import { LAS_HEADER_LENGTH, parseLasPublicHeader } from './las-public-header.js';
import { checkLazChunkTable, LASZIP_VLR } from './laz-chunk-table.js';
import { lasCreationDate } from './source-datetime.js';
import type { PointCloudHeader } from './source-header.js';

/** The LAS 1.0–1.2 public header block; 1.3 extends it to 235 bytes, 1.4 to 375. */
const LAS_HEADER_MIN = 227;
const LAS_14_HEADER = 375;
const VLR_HEADER = 54;
const EVLR_HEADER = 60;
/** Far more VLRs than any writer produces; a larger count is a corrupt header, not a walk to do. */
const MAX_VLRS = 10_000;

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Reads a LAS/LAZ/COPC header (LAS 1.0 to 1.4, point formats 0–10) through ranged GETs only: the
 * public header block, then the VLRs and EVLRs for the CRS. No point is decoded, so laz-perf is never
 * loaded.
 */
export async function readLasHeader(reader: BlockReader, where: string): Promise<PointCloudHeader> {
  const { size } = reader;
  if (size < LAS_HEADER_MIN) {
    throw new TruncatedSourceError(
      `${where}: a LAS header is at least ${LAS_HEADER_MIN} bytes, the object has ${size}; the file is truncated`,
    );
  }
  const raw = await reader.read(0, Math.min(LAS_14_HEADER, size));
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const major = raw[24]!;
  const minor = raw[25]!;
  if (major !== 1 || minor > 4)
    throw new CorruptHeaderError(`${where}: LAS version ${major}.${minor} does not exist`);
  const headerLength = view.getUint16(94, true);
  const minimum = LAS_HEADER_LENGTH[minor]!;
  if (headerLength < minimum) {
    throw new CorruptHeaderError(`${where}: the LAS 1.${minor} header size field says ${headerLength} bytes`);
  }
  if (size < headerLength) {
    throw new TruncatedSourceError(`${where}: the header is ${headerLength} bytes, the object has ${size}`);
  }
  const header: Header = parseLasPublicHeader(raw);
  if (header.pointDataRecordFormat > 10) {
    throw new CorruptHeaderError(
      `${where}: point data record format ${header.pointDataRecordFormat} does not exist (LAS knows 0–10)`,
    );
  }
  checkPointCloud(where, header.pointCount, header.min, header.max, header.scale);

  const compressed = (raw[104]! & 0xc0) !== 0;
  if (header.pointDataOffset < headerLength || header.pointDataOffset > size) {
    if (header.pointDataOffset > size) {
      throw new TruncatedSourceError(
        `${where}: the points start at byte ${header.pointDataOffset} but the object has ${size} bytes`,
      );
    }
    throw new CorruptHeaderError(
      `${where}: the point data offset ${header.pointDataOffset} is inside the header`,
    );
  }
  const pointBytes = header.pointCount * header.pointDataRecordLength;
  if (!compressed && header.pointDataOffset + pointBytes > size) {
    throw new TruncatedSourceError(
      `${where}: ${fmt(header.pointCount)} points of ${header.pointDataRecordLength} bytes need ` +
        `${fmt(header.pointDataOffset + pointBytes)} bytes, the object has ${fmt(size)}; the file is truncated`,
    );
  }
  if (header.vlrCount > MAX_VLRS || header.vlrCount * VLR_HEADER > header.pointDataOffset - headerLength) {
    throw new CorruptHeaderError(
      `${where}: ${header.vlrCount} VLRs do not fit between the header and the points`,
    );
  }
  if (header.evlrCount > 0) {
    if (header.evlrCount > MAX_VLRS) throw new CorruptHeaderError(`${where}: ${header.evlrCount} EVLRs`);
    if (header.evlrOffset + EVLR_HEADER > size) {
      throw new TruncatedSourceError(
        `${where}: the extended VLRs start at byte ${header.evlrOffset} but the object has ${size} bytes`,
      );
    }
  }

  const get = (begin: number, end: number) => reader.read(begin, end - begin);
  const vlrs = await Vlr.walk(get, header);
  const crs = await crsFromLasVlrs(vlrs, (vlr) => reader.read(vlr.contentOffset, vlr.contentLength));
  const isCopc = Vlr.find(vlrs, 'copc', 1) !== undefined;
  if (compressed) {
    const laszip = Vlr.find(vlrs, LASZIP_VLR.userId, LASZIP_VLR.recordId);
    if (!laszip) throw new CorruptHeaderError(`${where}: compressed points without LASzip's VLR`);
    await checkLazChunkTable(reader, {
      where,
      size,
      pointDataOffset: header.pointDataOffset,
      pointCount: header.pointCount,
      laszip: await reader.read(laszip.contentOffset, laszip.contentLength),
    });
  }
  const [minX, minY, minZ] = header.min;
  const [maxX, maxY, maxZ] = header.max;
  return {
    kind: 'pointcloud',
    format: isCopc ? 'copc' : compressed ? 'laz' : 'las',
    bytes: size,
    version: `${major}.${minor}`,
    pointFormat: header.pointDataRecordFormat,
    pointCount: header.pointCount,
    scale: header.scale,
    offset: header.offset,
    bbox: bboxOfPoints([
      [minX, minY],
      [maxX, maxY],
    ])!,
    zRange: [minZ, maxZ],
    crs,
    datetime: lasCreationDate(header.fileCreationDayOfYear, header.fileCreationYear),
  };
}
