import type { GeoKeys } from './crs-ref.js';
import { epsgEntry } from './epsg-database.js';
import { UnsupportedCrsError } from './errors.js';
import { angularUnit, datumDefinition, linearUnit } from './geokeys-datum.js';

const USER_DEFINED = 32767;
const MODEL_PROJECTED = 1;
const MODEL_GEOGRAPHIC = 2;

type Param = (name: string, ...fallbacks: string[]) => number | undefined;

/**
 * GeoTIFF coordinate transformation codes (ProjCoordTransGeoKey) and how GDAL maps each one's
 * keys onto PROJ parameters (GDAL's GTIFFetchProjParms). `a` reads an angle in degrees, `l` a
 * length in metres; a missing parameter is left out so proj4's default (0, or 1 for scales) holds.
 */
const METHODS: Readonly<Record<number, { name: string; build(a: Param, l: Param): string }>> = {
  1: {
    name: 'Transverse Mercator',
    build: (a, l) =>
      `+proj=tmerc ${p('lat_0', a('ProjNatOriginLatGeoKey', 'ProjCenterLatGeoKey'))} ${p('lon_0', a('ProjNatOriginLongGeoKey', 'ProjCenterLongGeoKey'))} ${p('k', a('ProjScaleAtNatOriginGeoKey', 'ProjScaleAtCenterGeoKey'), true)} ${fe(l)}`,
  },
  27: {
    name: 'Transverse Mercator (South Orientated)',
    build: (a, l) =>
      `+proj=tmerc +axis=wsu ${p('lat_0', a('ProjNatOriginLatGeoKey'))} ${p('lon_0', a('ProjNatOriginLongGeoKey'))} ${p('k', a('ProjScaleAtNatOriginGeoKey'), true)} ${fe(l)}`,
  },
  3: { name: 'Hotine Oblique Mercator (variant A)', build: (a, l) => `${omerc(a)} +no_uoff ${fe(l)}` },
  9815: {
    name: 'Hotine Oblique Mercator (variant B)',
    build: (a, l) => `${omerc(a)} ${fe(l, 'ProjCenter')}`,
  },
  7: {
    name: 'Mercator',
    build: (a, l) => {
      const lat1 = a('ProjStdParallel1GeoKey');
      const scale =
        lat1 === undefined ? p('k', a('ProjScaleAtNatOriginGeoKey', 'ProjScaleAtCenterGeoKey'), true) : '';
      return `+proj=merc ${p('lat_ts', lat1)} ${p('lon_0', a('ProjNatOriginLongGeoKey', 'ProjCenterLongGeoKey'))} ${scale} ${fe(l)}`;
    },
  },
  8: {
    name: 'Lambert Conformal Conic (2SP)',
    build: (a, l) =>
      `+proj=lcc ${p('lat_1', a('ProjStdParallel1GeoKey'))} ${p('lat_2', a('ProjStdParallel2GeoKey'))} ${p('lat_0', a('ProjFalseOriginLatGeoKey', 'ProjNatOriginLatGeoKey'))} ${p('lon_0', a('ProjFalseOriginLongGeoKey', 'ProjNatOriginLongGeoKey'))} ${fe(l, 'ProjFalseOrigin')}`,
  },
  9: {
    name: 'Lambert Conformal Conic (1SP)',
    build: (a, l) => {
      const lat0 = a('ProjNatOriginLatGeoKey', 'ProjCenterLatGeoKey');
      return `+proj=lcc ${p('lat_1', lat0)} ${p('lat_0', lat0)} ${p('lon_0', a('ProjNatOriginLongGeoKey', 'ProjCenterLongGeoKey'))} ${p('k_0', a('ProjScaleAtNatOriginGeoKey', 'ProjScaleAtCenterGeoKey'), true)} ${fe(l)}`;
    },
  },
  10: {
    name: 'Lambert Azimuthal Equal Area',
    build: (a, l) => `+proj=laea ${center(a)} ${fe(l)}`,
  },
  11: {
    name: 'Albers Equal Area',
    build: (a, l) =>
      `+proj=aea ${p('lat_1', a('ProjStdParallel1GeoKey'))} ${p('lat_2', a('ProjStdParallel2GeoKey'))} ${p('lat_0', a('ProjNatOriginLatGeoKey', 'ProjFalseOriginLatGeoKey', 'ProjCenterLatGeoKey'))} ${p('lon_0', a('ProjNatOriginLongGeoKey', 'ProjFalseOriginLongGeoKey', 'ProjCenterLongGeoKey'))} ${fe(l)}`,
  },
  12: { name: 'Azimuthal Equidistant', build: (a, l) => `+proj=aeqd ${center(a)} ${fe(l)}` },
  13: {
    name: 'Equidistant Conic',
    build: (a, l) =>
      `+proj=eqdc ${p('lat_1', a('ProjStdParallel1GeoKey'))} ${p('lat_2', a('ProjStdParallel2GeoKey'))} ${center(a)} ${fe(l)}`,
  },
  14: {
    name: 'Stereographic',
    build: (a, l) =>
      `+proj=stere ${center(a)} ${p('k', a('ProjScaleAtNatOriginGeoKey', 'ProjScaleAtCenterGeoKey'), true)} ${fe(l)}`,
  },
  15: {
    name: 'Polar Stereographic',
    build: (a, l) => {
      const lat = a('ProjNatOriginLatGeoKey') ?? 90;
      const lon = p('lon_0', a('ProjStraightVertPoleLongGeoKey', 'ProjNatOriginLongGeoKey'));
      if (Math.abs(lat) === 90) {
        return `+proj=stere +lat_0=${lat} ${lon} ${p('k', a('ProjScaleAtNatOriginGeoKey'), true)} ${fe(l)}`;
      }
      return `+proj=stere +lat_0=${lat < 0 ? -90 : 90} +lat_ts=${lat} ${lon} ${fe(l)}`;
    },
  },
  16: {
    name: 'Oblique Stereographic',
    build: (a, l) =>
      `+proj=sterea ${p('lat_0', a('ProjNatOriginLatGeoKey', 'ProjCenterLatGeoKey'))} ${p('lon_0', a('ProjNatOriginLongGeoKey', 'ProjCenterLongGeoKey'))} ${p('k', a('ProjScaleAtNatOriginGeoKey', 'ProjScaleAtCenterGeoKey'), true)} ${fe(l)}`,
  },
  17: {
    name: 'Equirectangular',
    build: (a, l) => `+proj=eqc ${p('lat_ts', a('ProjStdParallel1GeoKey'))} ${center(a)} ${fe(l)}`,
  },
  18: {
    name: 'Cassini-Soldner',
    build: (a, l) =>
      `+proj=cass ${p('lat_0', a('ProjNatOriginLatGeoKey', 'ProjCenterLatGeoKey'))} ${p('lon_0', a('ProjNatOriginLongGeoKey', 'ProjCenterLongGeoKey'))} ${fe(l)}`,
  },
  19: { name: 'Gnomonic', build: (a, l) => `+proj=gnom ${center(a)} ${fe(l)}` },
  20: { name: 'Miller Cylindrical', build: (a, l) => `+proj=mill ${center(a)} ${fe(l)}` },
  21: { name: 'Orthographic', build: (a, l) => `+proj=ortho ${center(a)} ${fe(l)}` },
  22: {
    name: 'Polyconic',
    build: (a, l) =>
      `+proj=poly ${p('lat_0', a('ProjNatOriginLatGeoKey', 'ProjCenterLatGeoKey'))} ${p('lon_0', a('ProjNatOriginLongGeoKey', 'ProjCenterLongGeoKey'))} ${fe(l)}`,
  },
  23: {
    name: 'Robinson',
    build: (a, l) =>
      `+proj=robin ${p('lon_0', a('ProjCenterLongGeoKey', 'ProjNatOriginLongGeoKey'))} ${fe(l)}`,
  },
  24: {
    name: 'Sinusoidal',
    build: (a, l) =>
      `+proj=sinu ${p('lon_0', a('ProjCenterLongGeoKey', 'ProjNatOriginLongGeoKey'))} ${fe(l)}`,
  },
  25: {
    name: 'Van der Grinten',
    build: (a, l) =>
      `+proj=vandg ${p('lon_0', a('ProjCenterLongGeoKey', 'ProjNatOriginLongGeoKey'))} ${fe(l)}`,
  },
  26: {
    name: 'New Zealand Map Grid',
    build: (a, l) =>
      `+proj=nzmg ${p('lat_0', a('ProjNatOriginLatGeoKey'))} ${p('lon_0', a('ProjNatOriginLongGeoKey'))} ${fe(l)}`,
  },
  28: {
    name: 'Cylindrical Equal Area',
    build: (a, l) =>
      `+proj=cea ${p('lat_ts', a('ProjStdParallel1GeoKey'))} ${p('lon_0', a('ProjNatOriginLongGeoKey', 'ProjCenterLongGeoKey'))} ${fe(l)}`,
  },
};

/** Names of codes GeoTIFF defines but proj4 (or geohub) cannot reproject, for messages. */
const UNSUPPORTED: Readonly<Record<number, string>> = {
  2: 'Transverse Mercator (modified Alaska)',
  4: 'Oblique Mercator (Laborde)',
  5: 'Oblique Mercator (Rosenmund)',
  6: 'Oblique Mercator (spherical)',
};

function p(name: string, value: number | undefined, omitOne = false): string {
  if (value === undefined || (omitOne && value === 1)) return '';
  return `+${name}=${value}`;
}
function fe(l: Param, prefix: 'Proj' | 'ProjFalseOrigin' | 'ProjCenter' = 'Proj'): string {
  const [e, n] =
    prefix === 'Proj'
      ? [l('ProjFalseEastingGeoKey'), l('ProjFalseNorthingGeoKey')]
      : [
          l(`${prefix}EastingGeoKey`, 'ProjFalseEastingGeoKey'),
          l(`${prefix}NorthingGeoKey`, 'ProjFalseNorthingGeoKey'),
        ];
  return `${p('x_0', e)} ${p('y_0', n)}`;
}
function center(a: Param): string {
  return `${p('lat_0', a('ProjCenterLatGeoKey', 'ProjNatOriginLatGeoKey'))} ${p('lon_0', a('ProjCenterLongGeoKey', 'ProjNatOriginLongGeoKey'))}`;
}
function omerc(a: Param): string {
  const alpha = a('ProjAzimuthAngleGeoKey');
  return `+proj=omerc ${p('lat_0', a('ProjCenterLatGeoKey'))} ${p('lonc', a('ProjCenterLongGeoKey'))} ${p('alpha', alpha)} ${p('gamma', a('ProjRectifiedGridAngleGeoKey') ?? alpha)} ${p('k', a('ProjScaleAtCenterGeoKey'), true)}`;
}

/** UTM conversions GeoTIFF writers name by code (ProjectionGeoKey 16001–16060 north, 16101–16160 south). */
function utmConversion(code: unknown): string | undefined {
  if (typeof code !== 'number') return undefined;
  if (code >= 16001 && code <= 16060) return `+proj=utm +zone=${code - 16000}`;
  if (code >= 16101 && code <= 16160) return `+proj=utm +zone=${code - 16100} +south`;
  return undefined;
}

const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * A proj4 definition built from user-defined GeoKeys, as GDAL builds its CRS from them:
 * datum (or ellipsoid, prime meridian), then the projection method and its parameters with
 * angles in degrees and lengths in metres, then the linear unit. Throws UnsupportedCrsError
 * naming the method (or unit) that cannot be expressed.
 */
export function geoKeysDefinition(keys: GeoKeys): string {
  const datum = datumDefinition(keys);
  const model = keys.GTModelTypeGeoKey;
  const projected = keys.ProjectedCSTypeGeoKey;
  const isProjected = model === MODEL_PROJECTED || (model !== MODEL_GEOGRAPHIC && projected !== undefined);
  if (!isProjected) return tidy(`+proj=longlat ${datum} +no_defs`);

  const toMetre = linearUnit(keys);
  const units = toMetre === 1 ? '+units=m' : `+to_meter=${toMetre}`;
  const utm = utmConversion(keys.ProjectionGeoKey);
  if (utm) return tidy(`${utm} ${datum} ${units} +no_defs`);

  const conversion = keys.ProjectionGeoKey;
  const transformation = keys.ProjCoordTransGeoKey;
  if (typeof transformation !== 'number') {
    const named =
      typeof conversion === 'number' && conversion !== USER_DEFINED ? epsgEntry(conversion) : undefined;
    throw new UnsupportedCrsError(
      typeof conversion === 'number' && conversion !== USER_DEFINED
        ? `its projection is named only by conversion code ${conversion}${named ? ` (${named.name})` : ''}, which geohub cannot expand`
        : 'its GeoKeys name no projection method (ProjCoordTransGeoKey is missing)',
    );
  }
  const method = METHODS[transformation];
  if (!method) {
    const name = UNSUPPORTED[transformation] ?? `ProjCoordTransGeoKey ${transformation}`;
    throw new UnsupportedCrsError(`its projection method ${name} is not one proj4 implements`);
  }
  const toDegrees = angularUnit(keys);
  const num = (name: string) => {
    const v = keys[name];
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  };
  const first = (names: string[]) => names.map(num).find((v) => v !== undefined);
  const angle: Param = (...names) => {
    const v = first(names);
    // Scale factors share the accessor: they are plain numbers, not angles.
    return v === undefined || names[0]!.includes('Scale') ? v : v * toDegrees;
  };
  const length: Param = (...names) => {
    const v = first(names);
    return v === undefined ? undefined : v * toMetre;
  };
  return tidy(`${method.build(angle, length)} ${datum} ${units} +no_defs`);
}

/** The GeoTIFF name of a coordinate transformation code, for messages. */
export function transformationName(code: unknown): string | undefined {
  if (typeof code !== 'number') return undefined;
  return METHODS[code]?.name ?? UNSUPPORTED[code];
}
