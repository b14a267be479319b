import type { Vlr } from 'copc/lib/las/vlr.js';
import type { CrsRef } from '../tiling/crs-ref.js';
import { epsgEntry } from '../tiling/epsg-database.js';
import { geoKeysFromDirectory } from './geokey-directory.js';
import { crsFromGeoKeys } from './geokeys-crs.js';

const PROJECTION_USERS = new Set(['LASF_Projection', 'liblas']);
const WKT_RECORD = 2112;
const GEOKEY_DIRECTORY_RECORD = 34735;
const GEO_DOUBLE_RECORD = 34736;
const GEO_ASCII_RECORD = 34737;

type ReadContent = (vlr: Vlr) => Promise<Uint8Array>;

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8').replace(/\0+$/, '').trim();

const float64s = (bytes: Uint8Array) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float64Array.from({ length: Math.floor(bytes.byteLength / 8) }, (_, i) =>
    view.getFloat64(i * 8, true),
  );
};

/**
 * The CRS of a LAS/LAZ/COPC file from its (extended) variable-length records: the OGC WKT record
 * (2112) and/or the GeoKeyDirectory record (34735). When both exist, an EPSG code geohub can
 * reproject wins (exact and short); otherwise the WKT, which proj4 reads directly; otherwise the
 * user-defined GeoKeys (with their GeoDoubleParams), from which a definition is built. Undefined when the file carries neither record.
 */
export async function crsFromLasVlrs(
  vlrs: readonly Vlr[],
  readContent: ReadContent,
): Promise<CrsRef | undefined> {
  const find = (recordId: number) =>
    vlrs.find((v) => PROJECTION_USERS.has(v.userId) && v.recordId === recordId && v.contentLength > 0);

  let fromKeys: CrsRef | undefined;
  const keysVlr = find(GEOKEY_DIRECTORY_RECORD);
  if (keysVlr) {
    const bytes = await readContent(keysVlr);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const directory = Uint16Array.from({ length: Math.floor(bytes.byteLength / 2) }, (_, i) =>
      view.getUint16(i * 2, true),
    );
    const asciiVlr = find(GEO_ASCII_RECORD);
    const ascii = asciiVlr ? Buffer.from(await readContent(asciiVlr)).toString('latin1') : undefined;
    const doubleVlr = find(GEO_DOUBLE_RECORD);
    const doubles = doubleVlr ? float64s(await readContent(doubleVlr)) : undefined;
    fromKeys = crsFromGeoKeys(geoKeysFromDirectory(directory, ascii, doubles));
  }
  if (fromKeys?.kind === 'epsg' && epsgEntry(fromKeys.code)?.proj4) return fromKeys;

  const wktVlr = find(WKT_RECORD);
  if (wktVlr) {
    const wkt = text(await readContent(wktVlr));
    if (wkt.length > 0) return { kind: 'wkt', wkt };
  }
  return fromKeys;
}
