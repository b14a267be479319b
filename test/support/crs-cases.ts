import type { OracleCase } from './crs-oracle.js';

/** Rasters GDAL writes from PROJ strings (no EPSG code): centre lon, lat and width in degrees. */
export const PROJ_STRINGS: readonly [string, string, [number, number, number]][] = [
  ['tmerc', '+proj=tmerc +lat_0=0 +lon_0=9 +k=0.9996 +x_0=500000 +ellps=GRS80', [9.5, 48, 2]],
  ['lcc-usft', '+proj=lcc +lat_1=33 +lat_2=45 +lat_0=39 +lon_0=-96 +ellps=clrk66 +units=us-ft', [-95, 38, 5]],
  [
    'lcc-1sp-paris',
    '+proj=lcc +lat_1=46.8 +lat_0=46.8 +lon_0=0 +k_0=0.99987742 +x_0=600000 +y_0=2200000 +a=6378249.2 +b=6356515 +pm=paris',
    [2.5, 46.5, 3],
  ],
  ['aea', '+proj=aea +lat_1=29.5 +lat_2=45.5 +lat_0=23 +lon_0=-96 +ellps=GRS80', [-100, 40, 20]],
  ['laea', '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80', [15, 50, 10]],
  ['stere-north', '+proj=stere +lat_0=90 +lat_ts=70 +lon_0=-45 +ellps=WGS84', [-45, 75, 60]],
  ['stere-south-pole', '+proj=stere +lat_0=-90 +k=0.994 +lon_0=0 +datum=WGS84', [0, -80, 90]],
  [
    'sterea',
    '+proj=sterea +lat_0=52.15616 +lon_0=5.38764 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=bessel',
    [5.4, 52.2, 1],
  ],
  [
    'omerc-b',
    '+proj=omerc +lat_0=4 +lonc=102.25 +alpha=323.0257905 +k=0.99984 +x_0=804671 +ellps=evrst69',
    [102, 4, 2],
  ],
  [
    'cass-links',
    '+proj=cass +lat_0=10.44166 +lon_0=-61.33333 +x_0=86501.46 +y_0=65379.01 +a=6378293.645 +b=6356617.987 +to_meter=0.201166195164',
    [-61.3, 10.5, 0.5],
  ],
  ['poly', '+proj=poly +lat_0=0 +lon_0=-54 +ellps=aust_SA', [-54, -10, 5]],
  ['eqdc', '+proj=eqdc +lat_1=20 +lat_2=60 +lat_0=40 +lon_0=-96 +datum=NAD83', [-96, 45, 10]],
  ['merc-lat-ts', '+proj=merc +lon_0=100 +lat_ts=10 +datum=WGS84', [105, 5, 5]],
  ['eqc', '+proj=eqc +lat_ts=30 +lon_0=0 +datum=WGS84', [20, 30, 10]],
  ['robin', '+proj=robin +lon_0=0 +datum=WGS84', [0, 0, 200]],
  ['sinu-modis', '+proj=sinu +lon_0=0 +R=6371007.181', [10, 45, 10]],
  ['aeqd', '+proj=aeqd +lat_0=40 +lon_0=-100 +datum=WGS84', [-100, 40, 10]],
  ['gnom', '+proj=gnom +lat_0=30 +lon_0=0 +datum=WGS84', [0, 30, 20]],
  ['ortho', '+proj=ortho +lat_0=40 +lon_0=10 +datum=WGS84', [10, 40, 30]],
  ['cea', '+proj=cea +lat_ts=30 +lon_0=0 +datum=WGS84', [0, 10, 20]],
  ['mill', '+proj=mill +lon_0=0 +datum=WGS84', [30, 20, 30]],
  ['nzmg', '+proj=nzmg +lat_0=-41 +lon_0=173 +x_0=2510000 +y_0=6023150 +ellps=intl', [174, -41, 2]],
  [
    'utm60s-antimeridian',
    '+proj=utm +zone=60 +south +ellps=intl +towgs84=-115.8,474.99,327.74,0,0,0,0',
    [179.5, -17, 3],
  ],
  ['tmerc-180', '+proj=tmerc +lon_0=180 +k=1 +x_0=500000 +ellps=GRS80', [180, -40, 4]],
  // GDAL writes user-defined GeoKeys with ProjCoordTransGeoKey 27: x is a westing, y a southing.
  ['tmerc-south-orientated', '+proj=tmerc +axis=wsu +lat_0=0 +lon_0=19 +k=1 +ellps=WGS84', [18.9, -33.4, 1]],
  ['longlat-paris', '+proj=longlat +ellps=intl +pm=paris', [0, 45, 2]],
  [
    'tmerc-ft',
    '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +units=ft',
    [-1, 52, 1],
  ],
];
/** Geostationary full disks (GOES-East, Himawari): the corners are off the Earth. */
export const FULL_DISKS: readonly OracleCase[] = [
  {
    id: 'geos-goes',
    srs: '+proj=geos +h=35786023 +lon_0=-75 +sweep=x +ellps=GRS80',
    gt: [-5434894.885, 2004.0173, 0, 5434894.885, 0, -2004.0173],
    size: [5424, 5424],
  },
  {
    id: 'geos-himawari',
    srs: '+proj=geos +h=35785831 +lon_0=140.7 +ellps=WGS84',
    gt: [-5500000, 2000, 0, 5500000, 0, -2000],
    size: [5500, 5500],
  },
];
