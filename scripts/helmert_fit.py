"""A Helmert (+towgs84, position vector) fitted to what PROJ does, for the few operations proj4
cannot express (Molodensky-Badekas, geographic offsets): proj4js reads 3 or 7 parameters only."""
import math

import numpy as np

WGS84 = (6378137.0, 6356752.314245179)


def geocentric(lat, lon, a, b):
    e2 = 1 - (b * b) / (a * a)
    p, l = math.radians(lat), math.radians(lon)
    n = a / math.sqrt(1 - e2 * math.sin(p) ** 2)
    return np.array([n * math.cos(p) * math.cos(l), n * math.cos(p) * math.sin(l), n * (1 - e2) * math.sin(p)])


def fit(pairs, ellipsoid):
    """pairs: [((lat, lon) on the source ellipsoid, (lat, lon) WGS 84 as PROJ put it)].
    Returns (towgs84 values, the largest residual in metres)."""
    src = [geocentric(*s, *ellipsoid) for s, _ in pairs]
    dst = [geocentric(*d, *WGS84) for _, d in pairs]
    d = np.array([q - p for p, q in zip(src, dst)])
    # Translations alone when they do (a small area: rotations would only fit noise).
    t = d.mean(axis=0)
    worst = max(np.linalg.norm(r - t) for r in d)
    if worst < 0.05 or len(pairs) < 4:
        return [*t.tolist(), 0, 0, 0, 0], float(worst)
    rows, rhs = [], []
    for (x, y, z), r in zip(src, d):
        rows += [[1, 0, 0, 0, z, -y, x], [0, 1, 0, -z, 0, x, y], [0, 0, 1, y, -x, 0, z]]
        rhs += list(r)
    a, rhs = np.array(rows), np.array(rhs)
    sol = np.linalg.lstsq(a, rhs, rcond=None)[0]
    worst = float(max(np.linalg.norm(x) for x in (a @ sol - rhs).reshape(-1, 3)))
    arcsec = 180 / math.pi * 3600
    return [*sol[:3].tolist(), *(sol[3:6] * arcsec).tolist(), sol[6] * 1e6], worst
