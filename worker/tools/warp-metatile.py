"""Warps one metatile (a block of XYZ tiles) once and cuts it into its 256x256 tiles.

One GDAL process per block instead of one per tile: a GDAL process costs about 50 ms to start,
more than a small tile's warp (docs/architecture.md#metatiles). The warp runs in memory
with the very gdalwarp argv the per-tile path uses (GDALWarp is the same library function
behind the utility), so a tile is the same whichever way it was made.

Usage: warp-metatile.py --serve, warp-metatile.py < spec.json, or warp-metatile.py '<json spec>'
(one argv element, never a shell line); a request (below) is accepted wherever a spec is.

--serve: the worker's way. GDAL is imported once, then each line of stdin is one request
{"run": id, "config": {GDAL option: value}, "spec": spec} (or a bare spec); when its tiles are all
written and closed, one line {"done": n} goes to stdout, and the next request is read. End of file:
exit 0. The interpreter's start and GDAL's import cost about as much CPU as a Byte metatile's warp
(docs/architecture.md#metatiles), so one engine serves a worker's metatiles one after the other,
whatever their run: a request's config (its run's source pin) holds for that request only, and a
request of another run starts with GDAL's network cache cleared. Any error: its message on stderr
and exit 1 (the worker starts a new engine for the next request); a cancel kills the engine's
process group.

Without an argument it imports GDAL first and then reads one spec until end of file; given no
spec (end of file at once) it exits 0 having done nothing. The spec:
  {"source": path or [member paths], "warp": [gdalwarp options without -of, source or destination],
   "tileSize": 256, "tiles": [{"col": c, "row": r, "output": path}, ...]}
Each tile is written to its `output` path (a .part path the caller promotes by rename).
A source may also be {"path", "bounds": [ulx, uly, lrx, lry]} (EPSG:3857): a display tile, which
carries no georeferencing of its own (a pyramid's lower level made from PNG or WebP children).
An optional "output": {"format": "PNG" | "WEBP", "rescale": [min, max], "ramp": [[pos, r, g, b],
...]} writes display tiles instead of GeoTIFF: 8-bit RGBA, nodata (or the block's alpha)
transparent, values scaled from `rescale` to 0-255 and coloured along `ramp` when given.
Errors go to stderr as GDAL printed them; exit 1.
"""

import json
import sys


def set_process_name(name="gdal-metatile"):
    # Seen as "gdal-metatile" in the process table while it works, like the GDAL tools it
    # replaces: the worker's start-up self-check recognises orphaned GDAL processes by that name.
    # Between specs it takes back the interpreter's name: it holds no output then.
    try:
        with open("/proc/self/comm", "w") as comm:
            comm.write(name)
    except OSError:
        pass


def process_name():
    try:
        with open("/proc/self/comm") as comm:
            return comm.read().strip()
    except OSError:
        return "python3"


def creation_options(gdal, data_type, tile_size):
    # One 256x256 block per tile (not 256x8 strips), DEFLATE with the predictor that suits
    # the type: horizontal differencing (2) for integers, floating point (3) for floats.
    options = [
        "TILED=YES",
        f"BLOCKXSIZE={tile_size}",
        f"BLOCKYSIZE={tile_size}",
        "COMPRESS=DEFLATE",
    ]
    if data_type in (gdal.GDT_Float32, gdal.GDT_Float64):
        options.append("PREDICTOR=3")
    elif not gdal.DataTypeIsComplex(data_type):
        options.append("PREDICTOR=2")
    return options


def import_gdal():
    try:
        from osgeo import gdal
    except ImportError as error:
        raise RuntimeError(
            f"GDAL's Python bindings are not importable by {sys.executable} ({error}): "
            "install python3-gdal, or set GEOHUB_GDAL_PYTHON to an interpreter that has them"
        ) from error
    gdal.UseExceptions()
    return gdal


def tile_layout(gdal, source, block, size):
    """What every tile of a block shares: its bands' type and description, the creation options.

    The tiles are written with Create and WriteRaster, not one gdal.Translate -srcwin each: a
    third of the time, since Translate builds a VRT, parses its options and copies the dataset
    band by band for every tile (docs/architecture.md#metatiles). What gdalwarp writes into a
    tile is written here: georeferencing, metadata, each band's colour interpretation (the
    source's, as gdalwarp copies them: an in-memory warp leaves them undefined), colour table,
    nodata, scale, offset, unit and description, and PHOTOMETRIC=RGB for an RGB source.
    """
    bands = [block.GetRasterBand(i + 1) for i in range(block.RasterCount)]
    data_type = bands[0].DataType
    interps = []
    for index, band in enumerate(bands):
        interp = band.GetColorInterpretation()
        if interp == gdal.GCI_Undefined and index < source.RasterCount:
            interp = source.GetRasterBand(index + 1).GetColorInterpretation()
        interps.append(interp)
    options = creation_options(gdal, data_type, size)
    # The photometric interpretation and alpha as GTiff's CreateCopy derives them from the bands.
    if data_type == gdal.GDT_Byte and interps[:3] == [gdal.GCI_RedBand, gdal.GCI_GreenBand, gdal.GCI_BlueBand]:
        options.append("PHOTOMETRIC=RGB")
    elif interps[0] == gdal.GCI_PaletteIndex:
        options.append("PHOTOMETRIC=PALETTE")
    else:
        options.append("PHOTOMETRIC=MINISBLACK")
    rgb = "PHOTOMETRIC=RGB" in options
    if len(bands) > (3 if rgb else 1) and interps[-1] == gdal.GCI_AlphaBand:
        options.append("ALPHA=YES")
    return {
        "count": len(bands),
        "type": data_type,
        "options": options,
        "wkt": block.GetProjectionRef(),
        "geo": block.GetGeoTransform(),
        "metadata": block.GetMetadata() or {},
        "bands": [
            {
                "interp": interp,
                "table": band.GetColorTable(),
                "nodata": band.GetNoDataValue(),
                "scale": band.GetScale(),
                "offset": band.GetOffset(),
                "unit": band.GetUnitType(),
                "description": band.GetDescription(),
                "metadata": band.GetMetadata() or {},
            }
            for band, interp in zip(bands, interps)
        ],
    }


def write_tile(driver, block, layout, col, row, size, output):
    x, y = col * size, row * size
    data = block.ReadRaster(x, y, size, size)
    tile = driver.Create(output, size, size, layout["count"], layout["type"], layout["options"])
    if tile is None:
        raise RuntimeError(f"GTiff could not create {output}")
    g = layout["geo"]
    tile.SetGeoTransform((g[0] + x * g[1] + y * g[2], g[1], g[2], g[3] + x * g[4] + y * g[5], g[4], g[5]))
    if layout["wkt"]:
        tile.SetProjection(layout["wkt"])
    if layout["metadata"]:
        tile.SetMetadata(layout["metadata"])
    for index, spec in enumerate(layout["bands"]):
        band = tile.GetRasterBand(index + 1)
        # Only where the tags made it otherwise: one GTiff cannot hold goes to a .aux.xml.
        if band.GetColorInterpretation() != spec["interp"]:
            band.SetColorInterpretation(spec["interp"])
        if spec["table"] is not None:
            band.SetColorTable(spec["table"])
        if spec["nodata"] is not None:
            band.SetNoDataValue(spec["nodata"])
        if spec["scale"] not in (None, 1.0):
            band.SetScale(spec["scale"])
        if spec["offset"] not in (None, 0.0):
            band.SetOffset(spec["offset"])
        if spec["unit"]:
            band.SetUnitType(spec["unit"])
        if spec["description"]:
            band.SetDescription(spec["description"])
        if spec["metadata"]:
            band.SetMetadata(spec["metadata"])
    tile.WriteRaster(0, 0, size, size, data)
    tile.FlushCache()
    tile = None


def touch_outputs(spec):
    # The outputs exist from the start, as gdalwarp's do: while the engine runs (or hangs, or
    # survives a kill), its partial output is visible to the worker's cleanup and self-check.
    for tile in spec["tiles"]:
        open(tile["output"], "wb").close()


def open_source(gdal, entry):
    # A path, or a display tile placed by its bounds (a VRT over it: no pixel is copied).
    if isinstance(entry, str):
        return gdal.Open(entry)
    tile = gdal.Open(entry["path"])
    options = gdal.TranslateOptions(format="VRT", outputBounds=entry["bounds"], outputSRS="EPSG:3857")
    return gdal.Translate("", tile, options=options)


def open_sources(gdal, source):
    # One path: that file. A collection's members (a list, in the collection's order): one
    # in-memory VRT mosaic per CRS, so that members sharing a grid are read as one raster and a
    # resampling kernel crosses their edges as it would inside one file (no seam); members in
    # other CRSs (a survey over two UTM zones) are warped after, each group in turn. Where
    # members overlap, the later one wins, in the VRT as in gdalwarp.
    if isinstance(source, str):
        return [gdal.Open(source)]
    datasets = [open_source(gdal, entry) for entry in source]
    groups = []
    for dataset in datasets:
        wkt = dataset.GetProjectionRef()
        if groups and groups[-1][0] == wkt:
            groups[-1][1].append(dataset)
        else:
            groups.append((wkt, [dataset]))
    mosaics = []
    for _, paths in groups:
        if len(paths) == 1:
            mosaics.append(paths[0])
            continue
        # The finest resolution of the group: a VRT at the average would resample the members.
        vrt = gdal.BuildVRT("", paths, options=gdal.BuildVRTOptions(resolution="highest"))
        if vrt is None:
            raise RuntimeError(f"gdal.BuildVRT could not mosaic {len(paths)} members")
        mosaics.append(vrt)
    return mosaics


def display_bands(gdal, block, output):
    """The block as 8-bit RGBA arrays: its alpha band, else its first band's mask, for alpha."""
    import numpy

    bands = [block.GetRasterBand(i + 1) for i in range(block.RasterCount)]
    if len(bands) > 1 and bands[-1].GetColorInterpretation() == gdal.GCI_AlphaBand:
        alpha = bands[-1].ReadAsArray()
        bands = bands[:-1]
    else:
        alpha = numpy.where(bands[0].GetMaskBand().ReadAsArray() > 0, 255, 0).astype(numpy.uint8)
    rescale = output.get("rescale")
    ramp = output.get("ramp")
    if not rescale and not ramp and bands[0].DataType == gdal.GDT_Byte:
        # 8-bit values shown as they are (a lower level's children, an RGB image): no arithmetic.
        rgb = [band.ReadAsArray() for band in bands[:3]] if len(bands) >= 3 else [bands[0].ReadAsArray()] * 3
        rgba = numpy.stack([*rgb, alpha.astype(numpy.uint8)])
        rgba[:3, alpha == 0] = 0
        return rgba
    alpha = alpha.astype(numpy.float64)
    values = [band.ReadAsArray().astype(numpy.float64) for band in bands]
    if rescale:
        low, high = float(rescale[0]), float(rescale[1])
        values = [numpy.clip((v - low) / (high - low), 0.0, 1.0) * 255.0 for v in values]
    if ramp:
        stops = numpy.array(ramp, dtype=numpy.float64)
        position = values[0] / 255.0
        rgb = [numpy.interp(position, stops[:, 0], stops[:, channel]) for channel in (1, 2, 3)]
    elif len(values) >= 3:
        rgb = values[:3]
    else:
        rgb = [values[0]] * 3
    rgba = numpy.stack([*rgb, alpha])
    # Transparent pixels are black: their colour is nothing, and compresses to nothing.
    rgba[:3, alpha == 0] = 0
    return numpy.clip(numpy.rint(rgba), 0, 255).astype(numpy.uint8)


def write_display_tile(gdal, rgba, col, row, size, output, spec_output):
    x, y = col * size, row * size
    tile = gdal.GetDriverByName("MEM").Create("", size, size, 4, gdal.GDT_Byte)
    for index in range(4):
        band = tile.GetRasterBand(index + 1)
        band.WriteArray(rgba[index, y : y + size, x : x + size])
        band.SetColorInterpretation(
            [gdal.GCI_RedBand, gdal.GCI_GreenBand, gdal.GCI_BlueBand, gdal.GCI_AlphaBand][index]
        )
    driver_name = spec_output["format"]
    # WebP as gdal2tiles.py writes it by default (quality 75); PNG lossless, as always.
    options = ["QUALITY=75"] if driver_name == "WEBP" else []
    written = gdal.GetDriverByName(driver_name).CreateCopy(output, tile, options=options)
    if written is None:
        raise RuntimeError(f"{driver_name} could not write {output}")
    written = None
    tile = None


def warp_block(gdal, spec):
    set_process_name()
    touch_outputs(spec)

    size = int(spec["tileSize"])
    sources = open_sources(gdal, spec["source"])
    warp = gdal.WarpOptions(options=["-of", "MEM", *spec["warp"]])
    block = gdal.Warp("", sources, options=warp)
    if block is None:
        raise RuntimeError("gdal.Warp returned no dataset")
    output = spec.get("output")
    if output:
        rgba = display_bands(gdal, block, output)
        for tile in spec["tiles"]:
            write_display_tile(gdal, rgba, int(tile["col"]), int(tile["row"]), size, tile["output"], output)
    else:
        layout = tile_layout(gdal, sources[0], block, size)
        driver = gdal.GetDriverByName("GTiff")
        for tile in spec["tiles"]:
            write_tile(driver, block, layout, int(tile["col"]), int(tile["row"]), size, tile["output"])
    block = None
    sources = None
    return gdal


def as_request(document):
    # A bare spec (no run, no config of its own) or a request {"run", "config", "spec"}.
    return document if "spec" in document else {"spec": document}


def serve_request(gdal, request, previous_run):
    run = request.get("run")
    if run != previous_run:
        # Another run may read another version under the same key (a re-upload): nothing GDAL
        # fetched for one run (sizes, blocks) may answer a read of the next.
        gdal.VSICurlClearCache()
    config = request.get("config") or {}
    for name, value in config.items():
        gdal.SetConfigOption(name, value)
    try:
        warp_block(gdal, request["spec"])
    finally:
        for name in config:
            gdal.SetConfigOption(name, None)
    return run


def warm_up(gdal):
    # While the engine waits for its first request: PROJ's database opened and the warper's code
    # paths loaded by a one-pixel warp in memory, not on the first metatile's time.
    pixel = gdal.GetDriverByName("MEM").Create("", 1, 1, 1, gdal.GDT_Byte)
    pixel.SetGeoTransform([0.0, 0.001, 0.0, 0.0, 0.0, -0.001])
    pixel.SetProjection('GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4326"]]')
    gdal.Warp("", pixel, options=gdal.WarpOptions(options=["-of", "MEM", "-t_srs", "EPSG:3857"]))
    gdal.GetDriverByName("GTiff")


def serve():
    gdal = import_gdal()
    warm_up(gdal)
    idle_name = process_name()
    done = 0
    run = None
    while True:
        line = sys.stdin.readline()  # one request a line, read as soon as it arrives
        if not line:
            break
        if not line.strip():
            continue
        run = serve_request(gdal, as_request(json.loads(line)), run)
        done += 1
        set_process_name(idle_name)
        sys.stdout.write(json.dumps({"done": done}) + "\n")
        sys.stdout.flush()
    return 0


def main(argv):
    if argv[1:] == ["--serve"]:
        return serve()
    if len(argv) > 2:
        sys.stderr.write("usage: warp-metatile.py [--serve | '<json spec>'] (or the spec on stdin)\n")
        return 2
    if len(argv) == 2:
        request = as_request(json.loads(argv[1]))
        # Its outputs before GDAL's import, as a one-shot tool's: visible from its first moment.
        touch_outputs(request["spec"])
        gdal = import_gdal()
    else:
        gdal = import_gdal()
        text = sys.stdin.read()
        if not text.strip():
            return 0  # stood down: no work was given
        request = as_request(json.loads(text))
    serve_request(gdal, request, None)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as error:  # noqa: BLE001 - one line on stderr, classified by the caller
        sys.stderr.write(f"warp-metatile: {error}\n")
        sys.exit(1)
