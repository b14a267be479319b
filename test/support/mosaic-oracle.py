"""GDAL's own answer for a run's mosaic, written apart from lib/ (which the test checks against it).

  mosaic-oracle.py make <dir>
      Writes <dir>/antimeridian.tif: one Byte band in EPSG:32760 (UTM 60S) across 180°, about
      2.4° wide at 17° S, with a pattern that differs from pixel to pixel (so a tile in the wrong
      place shows), nodata 0 and a nodata corner (so nodata inside the source is checked too).
      Prints its path.
  mosaic-oracle.py compare <mosaic.vrt> <source> <resampling>
      Reads the mosaic whole, warps the source with gdalwarp's library function onto the mosaic's
      own grid (its extent, size, EPSG:3857, the same resampling, the exact transformer, nodata 0)
      and prints one JSON line comparing them pixel by pixel.
"""
import json
import os
import sys

import numpy as np
from osgeo import gdal, osr

gdal.UseExceptions()


def make(out_dir):
    utm = osr.SpatialReference()
    utm.ImportFromEPSG(32760)
    wgs = osr.SpatialReference()
    wgs.ImportFromEPSG(4326)
    wgs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    to_utm = osr.CoordinateTransformation(wgs, utm)
    cx, cy, _ = to_utm.TransformPoint(180.0, -17.0)
    width, height, res = 360, 240, 700.0
    path = os.path.join(out_dir, "antimeridian.tif")
    ds = gdal.GetDriverByName("GTiff").Create(path, width, height, 1, gdal.GDT_Byte)
    ds.SetGeoTransform([cx - width * res / 2, res, 0, cy + height * res / 2, 0, -res])
    ds.SetSpatialRef(utm)
    rows, cols = np.mgrid[0:height, 0:width]
    data = (1 + (cols * 7 + rows * 13) % 200 + ((rows // 16 + cols // 16) % 2) * 50).astype(np.uint8)
    data[: height // 4, : width // 5] = 0  # a nodata corner inside the source
    band = ds.GetRasterBand(1)
    band.SetNoDataValue(0)
    band.WriteArray(data)
    ds = None
    print(path)


def compare(mosaic_path, source, resampling):
    mosaic = gdal.Open(mosaic_path)
    gt = mosaic.GetGeoTransform()
    w, h = mosaic.RasterXSize, mosaic.RasterYSize
    bounds = [gt[0], gt[3] + gt[5] * h, gt[0] + gt[1] * w, gt[3]]
    reference = gdal.Warp(
        "",
        source,
        options=gdal.WarpOptions(
            format="MEM",
            dstSRS="EPSG:3857",
            outputBounds=bounds,
            width=w,
            height=h,
            resampleAlg=resampling,
            errorThreshold=0,
            dstNodata=0,
        ),
    )
    got = mosaic.ReadAsArray().reshape(mosaic.RasterCount, h, w)
    want = reference.ReadAsArray().reshape(reference.RasterCount, h, w)
    differ = got != want
    where = np.argwhere(differ)
    first = None
    if len(where):
        b, r, c = (int(v) for v in where[0])
        first = {"band": b + 1, "row": r, "col": c, "mosaic": int(got[b, r, c]), "gdal": int(want[b, r, c])}
    data = (want != 0).any(axis=0)
    seams = list(range(0, w, 256)) + list(range(255, w, 256))
    print(
        json.dumps(
            {
                "size": [w, h],
                "bands": [mosaic.RasterCount, reference.RasterCount],
                "nodata": [mosaic.GetRasterBand(b + 1).GetNoDataValue() for b in range(mosaic.RasterCount)],
                "differing": int(differ.sum()),
                "first": first,
                "dataPixels": int(data.sum()),
                "nodataPixels": int((~data).sum()),
                "mosaicNodataPixels": int((got == 0).all(axis=0).sum()),
                "edges": {
                    "top": bool((got[:, 0, :] == want[:, 0, :]).all()),
                    "bottom": bool((got[:, -1, :] == want[:, -1, :]).all()),
                    "left": bool((got[:, :, 0] == want[:, :, 0]).all()),
                    "right": bool((got[:, :, -1] == want[:, :, -1]).all()),
                },
                "seamColumnsEqual": bool((got[:, :, seams] == want[:, :, seams]).all()),
                "dataOnBothEdges": [bool(data[:, :256].any()), bool(data[:, -256:].any())],
            }
        )
    )


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        compare(sys.argv[2], sys.argv[3], sys.argv[4])
