"""GDAL's position of one point per EPSG CRS, for every code asked, in one process.

Reads JSON on stdin: {"codes": [code, ...], "full": false}. For each code, with GDAL/PROJ alone (Debian's
proj-data grids included, as gdalwarp has them):
  x, y     - a point at the centre of the CRS's area of use, in the CRS's coordinates in the order
             GDAL reads files in (traditional GIS order: easting or longitude first);
  lon, lat - where GDAL puts that point in WGS 84.
Writes one JSON line per code: {"code", "x", "y", "lon", "lat"} or {"code", "error"}. Prints the
installed PROJ's metadata first: {"proj", "epsg"}.

Fast enough for every code: a projected CRS's point goes to its geographic CRS by the projection
alone (a conversion), and from there to WGS 84 by one transformation per geographic CRS (~600 of
them for ~6,000 codes). Creating a transformation costs 30 - 250 ms; one per code would take
minutes. PROJ chooses the datum operation among those of the source CRS's area, which for a few
codes is not the one it chooses for the geographic CRS's: with "full": true, each code gets
GDAL's own transformation from the CRS itself (the test asks so for codes that differ).
Written independently of lib/tiling, which the test compares against it.
"""
import json
import math
import os
import sqlite3
import sys

from osgeo import gdal, osr

gdal.UseExceptions()
osr.UseExceptions()
gdal.PushErrorHandler("CPLQuietErrorHandler")
TRAD = osr.OAMS_TRADITIONAL_GIS_ORDER


def srs(code=None, clone=None):
    s = clone or osr.SpatialReference()
    if code is not None:
        s.ImportFromEPSG(code)
    s.SetAxisMappingStrategy(TRAD)
    return s


WGS84 = srs(4326)
to_wgs84 = {}


def base_transform(geog):
    key = geog.ExportToWkt()
    if key not in to_wgs84:
        to_wgs84[key] = osr.CoordinateTransformation(geog, WGS84)
    return to_wgs84[key]


def finite(*values):
    return all(math.isfinite(v) and abs(v) < 1e30 for v in values)


def one(code, full):
    s = srs(code)
    area = s.GetAreaOfUse()
    if area is None:
        raise RuntimeError("no area of use")
    west, east = area.west_lon_degree, area.east_lon_degree
    if east < west:
        east += 360
    lon = ((west + east) / 2 + 180) % 360 - 180
    lat = (area.south_lat_degree + area.north_lat_degree) / 2
    geog = srs(clone=s.CloneGeogCS())
    per_unit = math.degrees(geog.GetAngularUnits())  # degrees per unit: 0.9 for grads
    meridian = float(geog.GetAttrValue("PRIMEM", 1) or 0)  # degrees east of Greenwich (WKT1)
    # The centre read in the geographic CRS's own units, meridian and datum: a point near it.
    centre = ((lon - meridian) / per_unit, lat / per_unit)
    if s.IsProjected():
        x, y, _ = osr.CoordinateTransformation(geog, s).TransformPoint(*centre)
    else:
        x, y = centre
    if full:
        out_lon, out_lat, _ = osr.CoordinateTransformation(s, WGS84).TransformPoint(x, y)
    else:
        out_lon, out_lat, _ = base_transform(geog).TransformPoint(*centre)
    if not finite(x, y, out_lon, out_lat):
        raise RuntimeError("GDAL cannot transform the centre of its area of use")
    return {"code": code, "x": x, "y": y, "lon": out_lon, "lat": out_lat}


def main():
    job = json.load(sys.stdin)
    codes, full = job["codes"], job.get("full", False)
    path = next(p for p in (f"{d}/proj.db" for d in osr.GetPROJSearchPaths()) if os.path.exists(p))
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    meta = dict(db.execute("SELECT key, value FROM metadata").fetchall())
    sys.stdout.write(json.dumps({"proj": meta["PROJ.VERSION"], "epsg": meta["EPSG.VERSION"]}) + "\n")
    for code in codes:
        try:
            line = one(code, full)
        except Exception as error:  # GDAL itself could not: reported, not compared
            line = {"code": code, "error": str(error).splitlines()[0] if str(error) else repr(error)}
        sys.stdout.write(json.dumps(line) + "\n")


main()
