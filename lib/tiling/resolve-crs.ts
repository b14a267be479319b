import proj4 from 'proj4';
import { type FileAxes, fileAxes } from './crs-axes.js';
import { type CrsRef, describeCrs } from './crs-ref.js';
import { EPSG_REGISTRY_ORIGIN, type EpsgEntry, epsgEntry } from './epsg-database.js';
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
  /** A geographic CRS's degrees per unit of the file's coordinates (0.9 for grads); 1 if absent. */
  readonly degreesPerUnit?: number;
  /**
   * What the planning cannot reproduce exactly: PROJ's best operation for the CRS uses a grid
   * proj4 does not have, and the error of the Helmert used instead (recorded on the run).
   */
  readonly gridWarning?: string;
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

/** The run's note on a CRS whose best operation needs a grid geohub does not ship (docs/crs.md#grids). */
function gridWarning(label: string, entry: EpsgEntry): string | undefined {
  const grid = entry.grid;
  if (!grid) return undefined;
  const error =
    grid.metres !== undefined
      ? `${grid.metres} m from the grid's answer at the centre of its area of use (measured)`
      : `up to about ${grid.accuracy} m (the accuracy EPSG gives for ${entry.via?.join(' + ') ?? 'it'})`;
  return (
    `${label}: PROJ's best transformation to WGS 84 uses the grid ${grid.grids.join(', ')}, which the tile ` +
    `planning does not apply; it uses ${entry.via?.join(' + ') ?? 'a Helmert'} instead, ${error}`
  );
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
    throw new UnsupportedCrsError(
      `${label} cannot be reprojected: PROJ ${EPSG_REGISTRY_ORIGIN.proj} gives no proj4 definition of it`,
    );
  }
  return {
    ...resolved(label, entry.proj4, WEB_MERCATOR_CODES.has(code)),
    ...(entry.unit ? { degreesPerUnit: entry.unit } : {}),
    ...(entry.grid ? { gridWarning: gridWarning(label, entry) } : {}),
  };
}

/**
 * Turns what the file says into something proj4 can reproject: an EPSG code through the
 * registry (derived from PROJ's database: epsg-database.ts), a WKT (its horizontal part; its PROJ4 extension when it has one; ESRI's
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
    case 'proj':
      return resolved(label, withoutGrids(ref.proj), false);
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
