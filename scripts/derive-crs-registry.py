#!/usr/bin/python3
"""Derives geohub's EPSG registry (lib/tiling/epsg-registry.jsonl) from the installed PROJ's own
database, the one GDAL uses: for every EPSG CRS, the proj4 string of PROJ's default operation
to WGS 84 when no grid file is present, at the centre of the CRS's area of use.

How: PROJ is asked, as GDAL asks it (proj_create_crs_to_crs, network off, a search path holding
proj.db alone), to transform the centre of the CRS's area of use to EPSG:4326, and then which
operation it used (proj_trans_get_last_used_operation). Its Helmert steps become one +towgs84
in position-vector convention (PROJ converts coordinate-frame rotations and microradians itself:
the epsg-index registry this replaces had both wrong); a ballpark step means no datum shift, as
PROJ applies none; a longitude rotation is the prime meridian the CRS's own string carries.
The CRS's own proj4 string is PROJ's export, with +datum= spelt as its ellipsoid (proj4js
attaches shifts of its own to some datum names) and the axes GDAL reads files in.

Grids: the same point is transformed again with the grids this PROJ finds (Debian's proj-data:
BETA2007, CHENYX06, ntf_r93, nzgd2kgrid0005) and the distance recorded as `grid.metres`; where
PROJ's best operation needs a grid no one installed (OSTN15, RDNAPTRANS, NTv2 of Canada, …), its
name and the fallback's EPSG accuracy are recorded instead (`grid.accuracy`).

Run: /usr/bin/python3 scripts/derive-crs-registry.py > lib/tiling/epsg-registry.jsonl
(some minutes). The first line holds the PROJ and EPSG versions it came from.
"""
import json
import math
import re
import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import proj_api as pj  # noqa: E402
from helmert_fit import fit  # noqa: E402
from osgeo import osr  # noqa: E402

PROJ_DB = os.environ.get("GEOHUB_PROJ_DB", "/usr/share/proj/proj.db")
KIND = {"geographic": "CRS-GEOGCRS", "geographic3d": "CRS-GEOG3DCRS", "projected": "CRS-PROJCRS",
        "compound": "CRS-COMPOUNDCRS", "geocentric": "CRS-GCENCRS", "vertical": "CRS-VERTCRS",
        "engineering": "CRS-ENGCRS"}
# PROJ's +datum= names and their ellipsoids: proj4js reads NAD27, potsdam, OSGB36, … with shifts
# (and grids) of its own, not PROJ's.
DATUM_ELLPS = {"WGS84": "WGS84", "NAD83": "GRS80", "NAD27": "clrk66", "GGRS87": "GRS80",
               "potsdam": "bessel", "carthage": "clrk80ign", "hermannskogel": "bessel",
               "ire65": "mod_airy", "nzgd49": "intl", "OSGB36": "airy"}
DIRECTION = {"east": "e", "west": "w", "north": "n", "south": "s"}
LONGITUDE_ROTATION = "9601"


def contexts():
    bare_dir = tempfile.mkdtemp(prefix="proj-no-grids-")
    os.symlink(PROJ_DB, os.path.join(bare_dir, "proj.db"))
    bare = pj.context_create()
    pj.log_level(bare, 0)  # operations needing a missing grid are expected: no noise on stderr
    pj.set_search_paths(bare, [bare_dir])
    pj.set_enable_network(bare, 0)
    full = pj.context_create()
    pj.log_level(full, 0)
    pj.set_enable_network(full, 0)
    return bare, full


def metres(a, b):
    """Great-circle distance between two (lat, lon) points on the mean Earth radius."""
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dl = math.radians(b[1] - a[1])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def point_of(area, u, v):
    """The point at fractions u (west to east) and v (south to north) of an area of use."""
    w, s, e, n = area
    if e < w:
        e += 360
    lon = (w + (e - w) * u + 180) % 360 - 180
    return s + (n - s) * v, lon


def centre_of(area):
    return point_of(area, 0.5, 0.5)


def placed(ctx, crs, wgs84, area):
    """PROJ's answer at the centre of the area of use, or at the first point of a 5 x 5 grid
    over it that PROJ can transform (a few Greenland CRSs' centres are off every operation)."""
    ct = pj.crs_to_crs(ctx, crs, wgs84, None, None)
    if not ct:
        return None
    try:
        for u, v in [(0.5, 0.5)] + [(i / 4, j / 4) for i in range(5) for j in range(5)]:
            here = at_point(ct, point_of(area, u, v))
            if here:
                return here
        return None
    finally:
        pj.destroy(ct)


def fitted(ctx, crs, wgs84, area, op_name):
    """A Helmert fitted to PROJ's answers at 3 x 3 points of the area, those where PROJ uses the
    same operation as at the centre (elsewhere it may use another, or none): (towgs84, worst
    residual)."""
    geod = pj.geodetic_crs(ctx, crs)
    to_geod = pj.crs_to_crs(ctx, crs, geod, None, None)
    geod_axes = pj.axes(ctx, geod)
    per_unit = math.degrees(geod_axes[0][1])
    lat_first = (geod_axes[0][0] or "").lower() in ("north", "south")
    pm = pj.prime_meridian(ctx, crs)
    pairs = []
    ct = pj.crs_to_crs(ctx, crs, wgs84, None, None)
    for u in (0.2, 0.5, 0.8):
        for v in (0.2, 0.5, 0.8):
            here = at_point(ct, point_of(area, u, v))
            if not here or pj.name(here[2]) != op_name:
                continue
            g = pj.trans(to_geod, pj.PJ_FWD, pj.Coord((here[0][0], here[0][1], 0, 0)))
            lat, lon = (g.v[0], g.v[1]) if lat_first else (g.v[1], g.v[0])
            pairs.append(((lat * per_unit, lon * per_unit + pm), here[1]))
    pj.destroy(ct)
    return fit(pairs, pj.ellipsoid(ctx, crs))


def at_point(ct, point):
    """(source point, its WGS 84 lat/lon, the operation used) by the transformation ct, or None."""
    # t = HUGE_VAL, as GDAL passes it: a time-dependent operation is taken at its own epoch.
    src = pj.trans(ct, pj.PJ_INV, pj.Coord((point[0], point[1], 0, math.inf)))
    if not all(math.isfinite(v) and abs(v) < 1e30 for v in src.v[:2]):
        return None
    out = pj.trans(ct, pj.PJ_FWD, src)
    if not all(math.isfinite(v) and abs(v) < 1e30 for v in out.v[:2]):
        return None
    return list(src.v[:2]), (out.v[0], out.v[1]), pj.last_used_operation(ct)


def steps(ctx, op):
    if pj.get_type(op) != pj.CONCATENATED:
        return [op]
    return [pj.step(ctx, op, i) for i in range(pj.step_count(ctx, op))]


def datum_shift(ctx, op):
    """('none' | 'helmert' | 'ballpark' | 'fitted: <method>', towgs84 or None, transformation names)."""
    total, kind, names = None, "none", []
    for s in steps(ctx, op):
        if pj.get_type(s) != pj.TRANSFORMATION:
            continue
        method, code = pj.method(ctx, s)
        if code == LONGITUDE_ROTATION:
            continue  # the prime meridian: the CRS's own +pm
        if (pj.name(s) or "").startswith("Null geographic offset"):
            continue  # WGS 84 (3D) to WGS 84 and the like: nothing moves
        names.append(pj.name(s))
        if (pj.name(s) or "").startswith("Ballpark"):
            kind = "ballpark" if kind == "none" else kind
            continue
        values = pj.towgs84(ctx, s)
        if values is not None and (pj.name(s) or "").startswith("Inverse of "):
            # PROJ gives an inverted Helmert's TOWGS84 as the forward one's: negated, it is the
            # inverse (to the first order, as every +towgs84 is).
            values = [-v for v in values]
        if values is None:
            return f"fitted: {method}", None, names
        # Two Helmerts in a row (through ETRS89, …): summed, as small rotations compose (< 1 mm).
        total = values if total is None else [a + b for a, b in zip(total, values)]
        kind = "helmert"
    return kind, total, names


def quadrant(a, b):
    """The meridian quadrant of an ellipsoid (equator to pole), by the rectifying radius's series."""
    n = (a - b) / (a + b)
    return (a + b) / 2 * (1 + n**2 / 4 + n**4 / 64 + n**6 / 256) * math.pi / 2


def ellipsoid_axes(a, b):
    return [f"+a={a!r}", f"+rf={a / (a - b)!r}"] if a != b else [f"+R={a!r}"]


def for_proj4js(ctx, crs, parts):
    """What proj4js reads otherwise than PROJ: its ellipsoid table differs (its WGS72 moves points
    1.4 m), so the axes are spelt out; its transverse Mercator misplaces a latitude of origin at
    a pole (Argentina's zones, 265 m), so the origin moves to the equator with the quadrant in
    the false northing (northing = k (M(lat) - M(lat_0)) + y_0, exactly)."""
    a, b = pj.ellipsoid(ctx, crs)
    # Only a named ellipsoid: axes PROJ spells out stay (Web Mercator's sphere is not its datum's).
    # The flattening as +rf: proj4js's somerc gives NaN for an ellipsoid given as +a and +b.
    out = [q for p in parts for q in (ellipsoid_axes(a, b) if p.startswith("+ellps=") else [p])]
    given = {p.split("=")[0]: p.split("=")[1] for p in out if p.startswith(("+a=", "+b="))}
    if len(given) == 2 and float(given["+a"]) != float(given["+b"]):
        ga, gb = float(given["+a"]), float(given["+b"])
        out = [f"+rf={ga / (ga - gb)!r}" if p.startswith("+b=") else f"+a={ga!r}" if p.startswith("+a=") else p
               for p in out]
    text = " ".join(out)
    if "+proj=tmerc " in text and " +lat_0=-90 " in text:
        k = float(next((p[3:] for p in out if p.startswith("+k=")), "1"))
        y0 = float(next((p[5:] for p in out if p.startswith("+y_0=")), "0"))
        out = [p for p in out if not p.startswith("+y_0=")]
        out = ["+lat_0=0" if p == "+lat_0=-90" else p for p in out]
        out.insert(out.index("+lat_0=0") + 1, f"+y_0={y0 + k * quadrant(a, b)!r}")
    return out


def proj4_of(ctx, crs, shift, op_meridian=None):
    text = pj.proj_string(ctx, crs)
    if not text:
        return None
    parts = [p for p in text.split() if not p.startswith(("+towgs84=", "+nadgrids="))]
    if op_meridian is not None:
        # The operation's own prime meridian (MGI (Ferro) to WGS 84 takes Ferro at 17°39'46.02" W,
        # the CRS at 17°40' W: 305 m apart): the one PROJ's answer comes with.
        parts = [p for p in parts if not p.startswith("+pm=")]
        parts.insert(len(parts) - 2, f"+pm={op_meridian}")
    out = []
    for p in parts:
        if p.startswith("+datum="):
            ellps = DATUM_ELLPS.get(p[len("+datum="):])
            if ellps is None:
                raise RuntimeError(f"no ellipsoid known for {p}")
            p = f"+ellps={ellps}"
        out.append(p)
        if p.startswith(("+ellps=", "+b=", "+rf=", "+R=")) and shift is not None and "+towgs84" not in " ".join(out):
            out.append("+towgs84=" + ",".join(f"{v:.10g}" for v in shift))
    if shift is not None and not any(p.startswith("+towgs84=") for p in out):
        raise RuntimeError(f"no ellipsoid to attach a shift to in {text}")
    out = for_proj4js(ctx, crs, out)
    if not any(p.startswith("+axis=") for p in out):
        dirs = [pj_dir for pj_dir, _ in pj.axes(ctx, crs)]
        letters = "".join(DIRECTION.get((d or "").lower(), "?") for d in dirs)
        # As GDAL reads files: only a westing or a southing differs from plain easting/northing.
        # A polar CRS's "south along 90°E" and "south along 180°E" are no east/north pair: none.
        if re.fullmatch(r"[ew][ns]|[ns][ew]", letters) and ("w" in letters or "s" in letters):
            out.insert(1, f"+axis={letters}u")
    return " ".join(out)


def op_meridian(ctx, op, crs):
    """The prime meridian the operation's pipeline takes the source at, when it is not the CRS's."""
    pipeline = pj.text(pj._as_proj_string(ctx, op, 5, None)) or ""  # PJ_PROJ_5
    found = re.search(r"\+inv \+proj=longlat [^|]*?\+pm=(\S+)", pipeline.split("+step +proj=push")[0])
    if not found:
        return None
    try:
        value = float(found.group(1))
    except ValueError:
        return None  # a named meridian (paris, ferro, …): the CRS's own
    return None if abs(pj.prime_meridian(ctx, crs) - value) < 1e-9 else value


def best_with_every_grid(ctx, crs, wgs84, centre):
    """PROJ's best operation at the centre were every grid installed."""
    fctx = pj.factory_context(ctx, None)
    pj.set_grid_use(ctx, fctx, pj.GRID_IGNORED)
    pj.set_spatial(ctx, fctx, pj.PARTIAL_INTERSECTION)
    lat, lon = centre
    pj.set_aoi(ctx, fctx, lon - 1e-6, lat - 1e-6, lon + 1e-6, lat + 1e-6)
    ops = pj.create_operations(ctx, crs, wgs84, fctx)
    try:
        return pj.list_get(ctx, ops, 0) if ops and pj.list_count(ops) > 0 else None
    finally:
        if ops:
            pj.list_destroy(ops)
        pj.factory_context_destroy(fctx)


def horizontal(ctx, crs, kind):
    if kind != "compound":
        return crs
    sub = pj.sub_crs(ctx, crs, 0)
    return sub if pj.TYPE.get(pj.get_type(sub)) in ("projected", "geographic", "geographic3d") else None


def as_gdal_reads(ctx, code):
    """The CRS GDAL uses for an EPSG code: a deprecated code with one replacement is read as that
    replacement (OSR_USE_NON_DEPRECATED, GDAL's default), e.g. EPSG:4855 as EPSG:5105."""
    crs = pj.create(ctx, f"EPSG:{code}".encode())
    if not crs or not pj.is_deprecated(crs):
        return crs, None
    replacements = pj.non_deprecated(ctx, crs)
    try:
        if not replacements or pj.list_count(replacements) != 1:
            return crs, None
        replacement = pj.list_get(ctx, replacements, 0)
        return replacement, pj.ident(replacement)
    finally:
        if replacements:
            pj.list_destroy(replacements)


def derive(code, bare, full, wgs_bare, wgs_full):
    named = pj.create(bare, f"EPSG:{code}".encode())
    if not named:
        return None
    crs, replaced_by = as_gdal_reads(bare, code)
    kind = pj.TYPE.get(pj.get_type(crs), "other")
    entry = {"code": code, "kind": KIND.get(kind, "CRS-DRVDCRS"), "name": pj.name(named)}
    if replaced_by:
        entry["replacedBy"] = replaced_by
    h = horizontal(bare, crs, kind) if kind in ("projected", "geographic", "geographic3d", "compound") else None
    if h is None:
        return entry
    if kind in ("geographic", "geographic3d"):
        datum = pj.datum_forced(bare, crs)
        entry["datum"] = int(pj.ident(datum).split(":")[1]) if datum and pj.ident(datum) else None
        per_unit = math.degrees(pj.axes(bare, crs)[0][1])
        if abs(per_unit - 1) > 1e-12:
            entry["unit"] = float(f"{per_unit:.12g}")  # degrees per unit of the file's coordinates (grads: 0.9)
    area = pj.area_of_use(bare, h) or pj.area_of_use(bare, crs)
    here = placed(bare, h, wgs_bare, area) if area else None
    if here is None:
        entry["proj4"] = None
        entry["shift"] = "unplaced"
        return entry
    source, position, op = here
    shift, values, via = datum_shift(bare, op)
    entry["shift"] = shift
    entry["via"] = via
    entry["accuracy"] = pj.accuracy(bare, op)
    if shift.startswith("fitted"):
        values, worst = fitted(bare, h, wgs_bare, area, pj.name(op))
        entry["fit"] = round(worst, 3)  # metres, the largest residual at the 9 points fitted
    entry["proj4"] = proj4_of(bare, h, values if shift == "helmert" or shift.startswith("fitted") else None,
                              op_meridian(bare, op, h))
    # Were every grid installed, PROJ's best operation at that point: one with a grid this PROJ
    # has (Debian's proj-data) is measured, from the same source coordinates; one with a grid
    # no one installed is named, with the fallback's accuracy.
    h_full = horizontal(full, as_gdal_reads(full, code)[0], kind)
    best = best_with_every_grid(full, h_full, wgs_full, centre_of(area))
    best_grids = [g for s in steps(full, best) for g in pj.grids(full, s)] if best else []
    present = [g for s in steps(full, best) for g in pj.grids(full, s, True)] if best else []
    if present:
        ct = pj.crs_to_crs(full, h_full, wgs_full, None, None)
        out = pj.trans(ct, pj.PJ_FWD, pj.Coord((source[0], source[1], 0, math.inf)))
        used = pj.last_used_operation(ct)
        used_grids = [g for s in steps(full, used) for g in pj.grids(full, s)] if used else []
        if used_grids:
            entry["grid"] = {"op": pj.name(used), "grids": used_grids,
                             "metres": round(metres(position, (out.v[0], out.v[1])), 3)}
        pj.destroy(ct)
    elif best_grids:
        entry["grid"] = {"op": pj.name(best), "grids": best_grids, "accuracy": entry["accuracy"]}
    return entry


def versions():
    db = sqlite3.connect(f"file:{PROJ_DB}?mode=ro", uri=True)
    meta = dict(db.execute("SELECT key, value FROM metadata").fetchall())
    return {"proj": meta["PROJ.VERSION"], "epsg": meta["EPSG.VERSION"], "epsgDate": meta["EPSG.DATE"],
            "projData": meta.get("PROJ_DATA.VERSION")}


def main():
    bare, full = contexts()
    wgs_bare, wgs_full = pj.create(bare, b"EPSG:4326"), pj.create(full, b"EPSG:4326")
    codes = sorted({int(i.code) for i in osr.GetCRSInfoListFromDatabase("EPSG")})
    # --shard i/n: every n-th code from the i-th, for processes run side by side (then merged by
    # code: sort -n -t: -k3 on the lines after the first).
    shard = next((a.split("=")[1] for a in sys.argv[1:] if a.startswith("--shard=")), "0/1")
    index, count = (int(x) for x in shard.split("/"))
    codes = codes[index::count]
    only = next((a.split("=")[1] for a in sys.argv[1:] if a.startswith("--codes=")), None)
    if only:  # re-deriving a few codes: their lines alone, to replace in the registry
        codes = [int(c) for c in only.split(",")]
        index = -1
    after = next((int(a.split("=")[1]) for a in sys.argv[1:] if a.startswith("--after=")), None)
    if after is not None:  # resuming a shard: the codes past the last one written
        codes = [c for c in codes if c > after]
        index = -1
    if index == 0:
        sys.stdout.write(json.dumps({"registry": "geohub EPSG registry", **versions(),
                                     "script": "scripts/derive-crs-registry.py"}) + "\n")
    for code in codes:
        try:
            entry = derive(code, bare, full, wgs_bare, wgs_full)
        except RuntimeError as error:
            raise RuntimeError(f"EPSG:{code}: {error}") from error
        if entry:
            sys.stdout.write(json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
