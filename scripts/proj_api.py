"""The few PROJ C API calls scripts/derive-crs-registry.py needs, through ctypes on the libproj
GDAL itself loads (no pyproj: Debian's python3-gdal is all the machine has). PROJ 9.1 or later:
proj_trans_get_last_used_operation names the operation PROJ chose for a point."""
import ctypes
import math

_lib = ctypes.CDLL("libproj.so.25")
_vp, _cp, _d, _int = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double, ctypes.c_int


class Coord(ctypes.Structure):
    _fields_ = [("v", _d * 4)]


def _sig(name, res, *args):
    f = getattr(_lib, name)
    f.restype = res
    f.argtypes = list(args)
    return f


_P = ctypes.POINTER
context_create = _sig("proj_context_create", _vp)
_set_search_paths = _sig("proj_context_set_search_paths", None, _vp, _int, _P(_cp))
log_level = _sig("proj_log_level", _int, _vp, _int)
set_enable_network = _sig("proj_context_set_enable_network", _int, _vp, _int)
create = _sig("proj_create", _vp, _vp, _cp)
destroy = _sig("proj_destroy", None, _vp)
crs_to_crs = _sig("proj_create_crs_to_crs_from_pj", _vp, _vp, _vp, _vp, _vp, _vp)
trans = _sig("proj_trans", Coord, _vp, _int, Coord)
last_used_operation = _sig("proj_trans_get_last_used_operation", _vp, _vp)
get_type = _sig("proj_get_type", _int, _vp)
_get_name = _sig("proj_get_name", _cp, _vp)
_id_auth = _sig("proj_get_id_auth_name", _cp, _vp, _int)
_id_code = _sig("proj_get_id_code", _cp, _vp, _int)
step_count = _sig("proj_concatoperation_get_step_count", _int, _vp, _vp)
step = _sig("proj_concatoperation_get_step", _vp, _vp, _vp, _int)
_towgs84 = _sig("proj_coordoperation_get_towgs84_values", _int, _vp, _vp, _P(_d), _int, _int)
accuracy = _sig("proj_coordoperation_get_accuracy", _d, _vp, _vp)
_method_info = _sig("proj_coordoperation_get_method_info", _int, _vp, _vp, _P(_cp), _P(_cp), _P(_cp))
grid_used_count = _sig("proj_coordoperation_get_grid_used_count", _int, _vp, _vp)
_grid_used = _sig(
    "proj_coordoperation_get_grid_used", _int, _vp, _vp, _int,
    _P(_cp), _P(_cp), _P(_cp), _P(_cp), _P(_int), _P(_int), _P(_int),
)
_as_proj_string = _sig("proj_as_proj_string", _cp, _vp, _vp, _int, _vp)
_area_of_use = _sig("proj_get_area_of_use", _int, _vp, _vp, _P(_d), _P(_d), _P(_d), _P(_d), _P(_cp))
geodetic_crs = _sig("proj_crs_get_geodetic_crs", _vp, _vp, _vp)
ellipsoid_of = _sig("proj_get_ellipsoid", _vp, _vp, _vp)
_ellipsoid_parameters = _sig("proj_ellipsoid_get_parameters", _int, _vp, _vp, _P(_d), _P(_d), _P(_int), _P(_d))
prime_meridian_of = _sig("proj_get_prime_meridian", _vp, _vp, _vp)
_pm_parameters = _sig("proj_prime_meridian_get_parameters", _int, _vp, _vp, _P(_d), _P(_d), _P(_cp))
normalize = _sig("proj_normalize_for_visualization", _vp, _vp, _vp)
sub_crs = _sig("proj_crs_get_sub_crs", _vp, _vp, _vp, _int)
coordinate_system = _sig("proj_crs_get_coordinate_system", _vp, _vp, _vp)
_axis_info = _sig(
    "proj_cs_get_axis_info", _int, _vp, _vp, _int,
    _P(_cp), _P(_cp), _P(_cp), _P(_d), _P(_cp), _P(_cp), _P(_cp),
)
datum_forced = _sig("proj_crs_get_datum_forced", _vp, _vp, _vp)
factory_context = _sig("proj_create_operation_factory_context", _vp, _vp, _cp)
set_grid_use = _sig("proj_operation_factory_context_set_grid_availability_use", None, _vp, _vp, _int)
set_spatial = _sig("proj_operation_factory_context_set_spatial_criterion", None, _vp, _vp, _int)
set_aoi = _sig("proj_operation_factory_context_set_area_of_interest", None, _vp, _vp, _d, _d, _d, _d)
create_operations = _sig("proj_create_operations", _vp, _vp, _vp, _vp, _vp)
is_deprecated = _sig("proj_is_deprecated", _int, _vp)
non_deprecated = _sig("proj_get_non_deprecated", _vp, _vp, _vp)
list_count = _sig("proj_list_get_count", _int, _vp)
list_destroy = _sig("proj_list_destroy", None, _vp)
factory_context_destroy = _sig("proj_operation_factory_context_destroy", None, _vp)
list_get = _sig("proj_list_get", _vp, _vp, _vp, _int)

# proj.h's enums (PROJ 9.1).
PJ_FWD, PJ_INV = 1, -1
TYPE = {11: "geographic", 12: "geographic", 13: "geographic3d", 10: "geocentric", 15: "projected",
        16: "compound", 14: "vertical", 18: "engineering", 19: "bound", 20: "other"}
CONCATENATED, TRANSFORMATION, CONVERSION = 23, 22, 21
GRID_IGNORED = 2
PARTIAL_INTERSECTION = 1


def text(b):
    return b.decode("utf8") if b is not None else None


def name(obj):
    return text(_get_name(obj))


def ident(obj):
    auth, code = _id_auth(obj, 0), _id_code(obj, 0)
    return f"{text(auth)}:{text(code)}" if auth and code else None


def set_search_paths(ctx, paths):
    arr = (_cp * len(paths))(*[p.encode() for p in paths])
    _set_search_paths(ctx, len(paths), arr)


def towgs84(ctx, op):
    """The operation as WKT1 TOWGS84 (position-vector) values, or None when it is no Helmert."""
    values = (_d * 7)()
    return list(values) if _towgs84(ctx, op, values, 7, 0) else None


def method(ctx, op):
    n, a, c = _cp(), _cp(), _cp()
    _method_info(ctx, op, ctypes.byref(n), ctypes.byref(a), ctypes.byref(c))
    return text(n.value), text(c.value)


def grids(ctx, op, available_only=False):
    out = []
    for i in range(grid_used_count(ctx, op)):
        short, full, pkg, url = _cp(), _cp(), _cp(), _cp()
        direct, licence, available = _int(), _int(), _int()
        _grid_used(ctx, op, i, *(ctypes.byref(x) for x in (short, full, pkg, url, direct, licence, available)))
        if available.value or not available_only:
            out.append(text(short.value))
    return out


def proj_string(ctx, obj):
    return text(_as_proj_string(ctx, obj, 4, None))  # PJ_PROJ_4


def area_of_use(ctx, obj):
    w, s, e, n, nm = _d(), _d(), _d(), _d(), _cp()
    if not _area_of_use(ctx, obj, *(ctypes.byref(x) for x in (w, s, e, n, nm))):
        return None
    return w.value, s.value, e.value, n.value


def axes(ctx, crs):
    """[(direction, radians per unit)] of the CRS's coordinate system."""
    cs = coordinate_system(ctx, crs)
    out = []
    for i in range(2):
        nm, ab, direction, unit_name, auth, code = _cp(), _cp(), _cp(), _cp(), _cp(), _cp()
        factor = _d()
        _axis_info(ctx, cs, i, *(ctypes.byref(x) for x in (nm, ab, direction, factor, unit_name, auth, code)))
        out.append((text(direction.value), factor.value))
    destroy(cs)
    return out


def ellipsoid(ctx, crs):
    """(semi-major, semi-minor) axes in metres of a CRS's ellipsoid."""
    e = ellipsoid_of(ctx, crs)
    a, b, computed, rf = _d(), _d(), _int(), _d()
    _ellipsoid_parameters(ctx, e, ctypes.byref(a), ctypes.byref(b), ctypes.byref(computed), ctypes.byref(rf))
    destroy(e)
    return a.value, b.value


def prime_meridian(ctx, crs):
    """Longitude of the prime meridian, in degrees east of Greenwich."""
    pm = prime_meridian_of(ctx, crs)
    lon, factor, unit = _d(), _d(), _cp()
    _pm_parameters(ctx, pm, ctypes.byref(lon), ctypes.byref(factor), ctypes.byref(unit))
    destroy(pm)
    return math.degrees(lon.value * factor.value)
