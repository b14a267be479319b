import proj4 from 'proj4';
import { type FileAxes, fileAxes } from './crs-axes.js';
import { type CrsRef, describeCrs } from './crs-ref.js';
import { epsgEntry } from './epsg-database.js';
import { UnsupportedCrsError } from './errors.js';
import { esriGeostationary } from './esri-geostationary.js';
import { esriKrovakAxes } from './esri-krovak.js';
import { geoKeysDefinition } from './geokeys-definition.js';
import { withoutGrids } from './grid-free-datum.js';
import { horizontalWkt } from './horizontal-wkt.js';
import { southOrientatedAsTm } from './south-orientated-wkt.js';

/** A CRS proj4 can work with. */
export interface ResolvedCrs {
  readonly label: string;
  /** A proj4 string or WKT that proj4 parses. */
  readonly definition: string;
  /** The source already is EPSG:3857: no transformation (and no round-off) is needed. */
  readonly webMercator: boolean;
  /** Coordinates are longitude/latitude in degrees (bounds must lie within ±180°, ±90°). */
  readonly geographic: boolean;
  /**
   * The directions of the file's x and y (`en`, or `ws` for a South African Lo zone, …): proj4
   * ignores them unless told, so every transform goes through crsConverter().
   */
  readonly axes: FileAxes;
}

/** Codes that are Web Mercator under any of its historical names. */
export const WEB_MERCATOR_CODES: ReadonlySet<number> = new Set([3857, 900913, 3785, 102100, 102113]);
const WEB_MERCATOR_NAMES =
  /^\s*PROJ(CS|CRS)\s*\[\s*"(WGS 84 \/ Pseudo-Mercator|WGS_1984_Web_Mercator_Auxiliary_Sphere|Popular Visualisation CRS \/ Mercator)"/i;
/** A WKT's own PROJ string (GDAL and ESRI write it for methods WKT1 has no name for, e.g. geos). */
const PROJ4_EXTENSION = /EXTENSION\s*\[\s*"PROJ4"\s*,\s*"([^"]+)"\s*\]/i;
const KIND_NAMES: Readonly<Record<string, string>> = {
  'CRS-VERTCRS': 'a vertical CRS',
  'CRS-GCENCRS': 'a geocentric CRS',
  'CRS-ENGCRS': 'an engineering (local) CRS',
  'CRS-DRVDCRS': 'a derived CRS',
};

/** The first line of an error's message: proj4's own quote the whole WKT. */
const message = (error: unknown) => ((error as Error)?.message ?? String(error)).split('\n')[0]!.trim();

/** The proj4 projection of a definition, or UnsupportedCrsError naming what proj4 lacks. */
function parse(definition: string, label: string): { projName: string; axis?: string } {
  try {
    proj4(definition, 'EPSG:4326');
    return proj4.Proj(definition) as unknown as { projName: string; axis?: string };
  } catch (error) {
    const method =
      /\+proj=(\S+)/.exec(definition)?.[1] ?? /(?:PROJECTION|METHOD)\s*\[\s*"([^"]+)"/i.exec(definition)?.[1];
    const why = method ? `its projection method ${method} is not one proj4 implements` : message(error);
    throw new UnsupportedCrsError(`${label} cannot be reprojected: ${why}`, { cause: error });
  }
}

function resolved(label: string, definition: string, webMercator: boolean, axes?: FileAxes): ResolvedCrs {
  const { projName, axis } = parse(definition, label);
  return { label, definition, webMercator, geographic: projName === 'longlat', axes: axes ?? fileAxes(axis) };
}

function resolveEpsg(code: number, citation: string | undefined): ResolvedCrs {
  // Deprecated aliases of Web Mercator (900913, 3785, …) are gone from the registry but not from files.
  const entry = epsgEntry(WEB_MERCATOR_CODES.has(code) ? 3857 : code);
  if (!entry) {
    throw new UnsupportedCrsError(
      `EPSG:${code}${citation ? ` (${citation})` : ''} is not a code of the EPSG registry; ` +
        'assign a valid one, e.g. gdal_translate -a_srs EPSG:xxxx',
    );
  }
  const label = `EPSG:${code} (${entry.name})`;
  const kind = KIND_NAMES[entry.kind];
  if (kind)
    throw new UnsupportedCrsError(`${label} is ${kind}, not a map CRS: it cannot place the source on a map`);
  if (!entry.proj4) {
    // The registry's WKT1 still names the method and its parameters; proj4 parses most of them.
    const method = entry.wkt ? /PROJECTION\s*\[\s*"([^"]+)"/i.exec(entry.wkt)?.[1] : undefined;
    if (entry.wkt && method) return resolved(label, entry.wkt, false);
    throw new UnsupportedCrsError(
      `${label} cannot be reprojected: the EPSG registry geohub ships (epsg-index) has no definition of it`,
    );
  }
  return resolved(label, withoutGrids(entry.proj4), WEB_MERCATOR_CODES.has(code));
}

/**
 * Turns what the file says into something proj4 can reproject: an EPSG code through the
 * registry (epsg-index), a WKT (its horizontal part; its PROJ4 extension when it has one; ESRI's
 * geostationary view, which proj4 does not read), or
 * user-defined GeoKeys through the definition GDAL would build from them. Fails with a message
 * naming the CRS found and what cannot be reprojected.
 */
export function resolveCrs(ref: CrsRef): ResolvedCrs {
  const label = describeCrs(ref);
  switch (ref.kind) {
    case 'epsg':
      return resolveEpsg(ref.code, ref.citation);
    case 'wkt': {
      const horizontal = horizontalWkt(ref.wkt);
      if (horizontal.length === 0) throw new UnsupportedCrsError('the WKT CRS definition is empty');
      const extension = PROJ4_EXTENSION.exec(horizontal)?.[1];
      if (extension) return resolved(label, withoutGrids(extension), WEB_MERCATOR_NAMES.test(horizontal));
      const southOrientated = southOrientatedAsTm(horizontal);
      if (southOrientated) return resolved(label, southOrientated, false, 'ws');
      const definition = esriGeostationary(horizontal) ?? horizontal;
      return resolved(
        label,
        definition,
        WEB_MERCATOR_NAMES.test(horizontal),
        esriKrovakAxes(horizontal, label),
      );
    }
    case 'user-defined': {
      if (!ref.keys)
        throw new UnsupportedCrsError(`${label} cannot be reprojected: its GeoKeys were not read`);
      let definition: string;
      try {
        definition = geoKeysDefinition(ref.keys);
      } catch (error) {
        throw new UnsupportedCrsError(`${label} cannot be reprojected: ${message(error)}`, { cause: error });
      }
      return resolved(label, definition, false);
    }
  }
}
