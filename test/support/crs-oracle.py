"""GDAL's own answer for the XYZ cover of small rasters in many CRSs, in one process.

Reads JSON on stdin: {"dir": <scratch dir>, "cases": [{"id", "srs", "u", "v", "fraction",
"lonlat"?, "gt"?, "size"?}]}. For each case it makes a sparse 256 x 192 GeoTIFF (or "size")
in `srs` with GDAL, placed at the fractions u, v of the CRS's area of use and about `fraction`
of its width wide, or "metres" wide (or at "lonlat" [lon, lat, width in degrees], or with
geotransform "gt"),
then computes, with GDAL/PROJ only:
  zoom   - the XYZ zoom closest to the resolution gdalwarp suggests for EPSG:3857's Mercator
           centred on the raster's longitude (the resolution does not depend on lon_0, and
           across the antimeridian GDAL 3.6 suggests a grid as wide as the world for EPSG:3857);
  ranges - the tiles at that zoom under the raster's boundary (21 points per edge, transformed
           by PROJ to longitude/latitude; points off the projection's domain replaced by the limb
           found by bisection from the centre; longitudes unwrapped along the ring; a pole inside
           the raster reaches that pole), split in two where it crosses the antimeridian.
Writes one JSON line per case: {"id", "file", "zoom", "ranges"} or {"id", "error"}.
With --list-projected (--list-geographic), prints the EPSG registry's projected (2D geographic)
CRSs instead: [[code, method], ...].
Written independently of lib/tiling, which the test compares against it.
"""
import json
import math
import os
import sys

from osgeo import gdal, ogr, osr

gdal.UseExceptions()
osr.UseExceptions()
# Points off the projection's domain are expected (the limb search probes them): no stderr noise.
gdal.PushErrorHandler("CPLQuietErrorHandler")

SIZE = (256, 192)
PER_EDGE = 21
MAX_LAT = 85.0511287798066
TOL = 1 / (256 * 1000)
TRAD = osr.OAMS_TRADITIONAL_GIS_ORDER


def srs_of(spec):
    s = osr.SpatialReference()
    s.SetFromUserInput(spec)
    s.SetAxisMappingStrategy(TRAD)
    return s


WGS84 = srs_of("EPSG:4326")


def ok(p):
    return p is not None and all(math.isfinite(v) for v in p[:2]) and abs(p[1]) <= 90 + 1e-9


def to_lonlat(ct, x, y):
    try:
        p = ct.TransformPoint(x, y)
    except RuntimeError:
        return None
    return p if ok(p) else None


def limb(ct, inside, outside):
    lo, hi, best = 0.0, 1.0, None
    for _ in range(40):
        t = (lo + hi) / 2
        p = to_lonlat(ct, inside[0] + (outside[0] - inside[0]) * t, inside[1] + (outside[1] - inside[1]) * t)
        if p:
            lo, best = t, p
        else:
            hi = t
    return best


def place(case, srs, W, H):
    if "gt" in case:
        return case["gt"]
    if "lonlat" in case:
        lon, lat, width = case["lonlat"]
    else:
        area = srs.GetAreaOfUse()
        west, east = area.west_lon_degree, area.east_lon_degree
        if east < west:
            east += 360
        lon = west + (east - west) * case["u"]
        lat = area.south_lat_degree + (area.north_lat_degree - area.south_lat_degree) * case["v"]
        lon = (lon + 180) % 360 - 180
        width = (east - west) * case.get("fraction", 0.01)
    ct = osr.CoordinateTransformation(WGS84, srs)
    x0, y0, _ = ct.TransformPoint(lon, lat)
    x1, y1, _ = ct.TransformPoint(lon + width / 2, lat)
    pixel = 2 * math.hypot(x1 - x0, y1 - y0) / W
    if "metres" in case:  # pixels of metres / W metres, in the CRS's unit (US feet for a State Plane)
        pixel = case["metres"] / W / srs.GetLinearUnits()
    if not (math.isfinite(pixel) and pixel > 0 and math.isfinite(x0) and math.isfinite(y0)):
        raise RuntimeError(f"no place for a raster at {lon}, {lat}")
    return [x0 - pixel * W / 2, pixel, 0, y0 + pixel * H / 2, 0, -pixel]


def tile_x(lon, n):
    return (lon + 180) / 360 * n


def tile_y(lat, n):
    phi = math.radians(min(max(lat, -MAX_LAT), MAX_LAT))
    return (1 - math.log(math.tan(phi) + 1 / math.cos(phi)) / math.pi) / 2 * n


def cover(ds, srs, z):
    gt = ds.GetGeoTransform()
    W, H = ds.RasterXSize, ds.RasterYSize
    at = lambda c, r: (gt[0] + c * gt[1] + r * gt[2], gt[3] + c * gt[4] + r * gt[5])
    ring = []
    steps = PER_EDGE - 1
    for c0, r0, c1, r1 in [(0, H, W, H), (W, H, W, 0), (W, 0, 0, 0), (0, 0, 0, H)]:
        for s in range(steps):
            ring.append(at(c0 + (c1 - c0) * s / steps, r0 + (r1 - r0) * s / steps))
    ct = osr.CoordinateTransformation(srs, WGS84)
    centre = at(W / 2, H / 2)
    if any(to_lonlat(ct, *p) is None for p in ring):
        ring = []
        steps = 256
        for c0, r0, c1, r1 in [(0, H, W, H), (W, H, W, 0), (W, 0, 0, 0), (0, 0, 0, H)]:
            for s in range(steps):
                ring.append(at(c0 + (c1 - c0) * s / steps, r0 + (r1 - r0) * s / steps))
    pts = []
    for p in ring:
        q = to_lonlat(ct, *p) or limb(ct, centre, p)
        if q:
            pts.append(q)
    if not pts:
        raise RuntimeError("no point of the boundary projects")
    lons, offset = [], 0
    for i, p in enumerate(pts):
        if i:
            d = p[0] + offset - lons[-1]
            if d > 180:
                offset -= 360
            elif d < -180:
                offset += 360
        lons.append(p[0] + offset)
    d = pts[0][0] + offset - lons[-1]
    closing = offset - 360 if d > 180 else offset + 360 if d < -180 else offset
    mid = (min(lons) + max(lons)) / 2
    shift = -360 * math.floor((mid + 180) / 360)
    lons = [l + shift for l in lons]
    lats = [p[1] for p in pts]
    west, east, south, north = min(lons), max(lons), min(lats), max(lats)
    poly = ogr.Geometry(ogr.wkbLinearRing)
    for x, y in ring + [ring[0]]:
        poly.AddPoint_2D(x, y)
    polygon = ogr.Geometry(ogr.wkbPolygon)
    polygon.AddGeometry(poly)
    inverse = osr.CoordinateTransformation(WGS84, srs)
    poles = []
    for lat in (90, -90):
        try:
            px, py, _ = inverse.TransformPoint(0, lat)
            pt = ogr.Geometry(ogr.wkbPoint)
            pt.AddPoint_2D(px, py)
            poles.append(math.isfinite(px) and math.isfinite(py) and polygon.Contains(pt))
        except RuntimeError:
            poles.append(False)
    if poles[0]:
        north = 90
    if poles[1]:
        south = -90
    if closing != 0 or any(poles) or east - west >= 360:
        west, east = -180, 180
    n = 2**z
    left, right = tile_x(west, n), tile_x(east, n)
    top, bottom = tile_y(north, n), tile_y(south, n)
    y0 = max(0, min(n - 1, math.floor(top + TOL)))
    y1 = max(0, min(n - 1, math.ceil(bottom - TOL) - 1))
    x0, x1 = math.floor(left + TOL), math.ceil(right - TOL) - 1
    if bottom - top <= TOL:
        return []
    if right - left >= n:
        spans = [(0, n - 1)]
    elif x0 < 0:
        spans = [(x0 + n, n - 1), (0, x1)]
    elif x1 >= n:
        spans = [(x0, n - 1), (0, x1 - n)]
    else:
        spans = [(x0, x1)]
    if len(spans) == 2 and spans[0][0] <= spans[1][1] + 1:
        spans = [(0, n - 1)]
    return [{"z": z, "minX": a, "minY": y0, "maxX": b, "maxY": y1} for a, b in spans if a <= b]


def suggested_resolution(ds, centre_lon):
    for target in (f"+proj=merc +a=6378137 +b=6378137 +lon_0={centre_lon} +units=m +no_defs",):
        vrt = "/vsimem/oracle.vrt"
        try:
            warped = gdal.Warp(vrt, ds, format="VRT", dstSRS=target)
        except RuntimeError:
            continue
        res = warped.GetGeoTransform()[1] if warped.RasterXSize > 1 and warped.RasterYSize > 1 else None
        warped = None
        gdal.Unlink(vrt)
        if res:
            return res
    raise RuntimeError("gdalwarp suggests no EPSG:3857 grid for it")


def run(case, out_dir):
    srs = srs_of(case["srs"])
    W, H = case.get("size", SIZE)
    gt = place(case, srs, W, H)
    path = os.path.join(out_dir, f"{case['id']}.tif")
    ds = gdal.GetDriverByName("GTiff").Create(path, W, H, 1, gdal.GDT_Byte, options=["SPARSE_OK=TRUE"])
    ds.SetGeoTransform(gt)
    ds.SetSpatialRef(srs)
    ds.FlushCache()
    ds = None
    ds = gdal.Open(path)
    centre = to_lonlat(osr.CoordinateTransformation(srs, WGS84), gt[0] + gt[1] * W / 2 + gt[2] * H / 2, gt[3] + gt[4] * W / 2 + gt[5] * H / 2)
    res = suggested_resolution(ds, centre[0] if centre else 0)
    z = max(0, min(22, round(math.log2(156543.03392804097 / res))))
    return {"id": case["id"], "file": path, "zoom": z, "ranges": cover(ds, srs, z)}


def list_crs(kind):
    """Every non-deprecated projected (or 2D geographic) CRS of the EPSG registry in PROJ's database."""
    wanted = osr.OSR_CRS_TYPE_PROJECTED if kind == "projected" else osr.OSR_CRS_TYPE_GEOGRAPHIC_2D
    infos = osr.GetCRSInfoListFromDatabase("EPSG")
    rows = [[int(i.code), i.projection_method or ""] for i in infos if i.type == wanted and not i.deprecated]
    sys.stdout.write(json.dumps(sorted(rows)) + "\n")


def main():
    if sys.argv[1:] in (["--list-projected"], ["--list-geographic"]):
        list_crs(sys.argv[1][len("--list-"):])
        return
    job = json.load(sys.stdin)
    for case in job["cases"]:
        try:
            line = run(case, job["dir"])
        except Exception as error:  # GDAL itself could not make or warp it: reported, not compared
            line = {"id": case["id"], "error": str(error).splitlines()[0] if str(error) else repr(error)}
        sys.stdout.write(json.dumps(line) + "\n")


main()
