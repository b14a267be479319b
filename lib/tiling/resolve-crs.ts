import proj4 from 'proj4';
import { type CrsRef, describeCrs } from './crs-ref.js';
import { epsgDefinition, WEB_MERCATOR_CODES } from './epsg-definitions.js';
import { UnsupportedCrsError } from './errors.js';
import { horizontalWkt } from './horizontal-wkt.js';

/** A CRS proj4 can work with. */
export interface ResolvedCrs {
  readonly label: string;
  /** A proj4 string or WKT that proj4 parses. */
  readonly definition: string;
  /** The source already is EPSG:3857: no transformation (and no round-off) is needed. */
  readonly webMercator: boolean;
}

const WEB_MERCATOR_NAMES =
  /^\s*PROJ(CS|CRS)\s*\[\s*"(WGS 84 \/ Pseudo-Mercator|WGS_1984_Web_Mercator_Auxiliary_Sphere|Popular Visualisation CRS \/ Mercator)"/i;

/** Throws UnsupportedCrsError unless proj4 can build a transformation from this definition. */
function checkParses(definition: string, label: string): void {
  try {
    proj4(definition, 'EPSG:4326');
  } catch (error) {
    throw new UnsupportedCrsError(
      `${label} cannot be reprojected: proj4 does not understand its definition (${(error as Error)?.message ?? String(error)})`,
      { cause: error },
    );
  }
}

/**
 * Turns what the file says into something proj4 can reproject, or fails with a message that says
 * what was found and what would work instead.
 */
export function resolveCrs(ref: CrsRef): ResolvedCrs {
  const label = describeCrs(ref);
  switch (ref.kind) {
    case 'epsg': {
      const definition = epsgDefinition(ref.code);
      if (!definition) {
        throw new UnsupportedCrsError(
          `${label} is not a CRS geohub can reproject (known: EPSG:4326, 4269, 4267, 4258, 3857, UTM 326xx/327xx, ` +
            'NAD27 UTM 267xx, NAD83 UTM 269xx, ETRS89 UTM 258xx); reproject the source to one of these, ' +
            'or for a point cloud add an OGC WKT VLR',
        );
      }
      checkParses(definition, label);
      return { label, definition, webMercator: WEB_MERCATOR_CODES.has(ref.code) };
    }
    case 'wkt': {
      const definition = horizontalWkt(ref.wkt);
      if (definition.length === 0) throw new UnsupportedCrsError('the WKT CRS definition is empty');
      checkParses(definition, label);
      return { label, definition, webMercator: WEB_MERCATOR_NAMES.test(definition) };
    }
    case 'user-defined':
      throw new UnsupportedCrsError(
        `${label} names no EPSG code; geohub reprojects EPSG-coded CRSs and WKT only: ` +
          'assign an EPSG code to the source (e.g. gdal_translate -a_srs EPSG:xxxx)',
      );
  }
}
