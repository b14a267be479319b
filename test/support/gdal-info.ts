import { execFileSync } from 'node:child_process';
import { DEFAULT_GDAL_PYTHON } from '../../worker/metatile-command.js';

/**
 * `gdalinfo -json` of many files in one process (GDAL's own `Info`, which the gdalinfo utility
 * wraps): a gdalinfo per tile cost tens of seconds of process starts per test on a slow machine.
 * Options as gdalinfo takes them (e.g. `-stats`). A file GDAL cannot open throws, naming it.
 */
export function gdalInfos<T = Record<string, unknown>>(
  files: readonly string[],
  options: readonly string[] = [],
): Map<string, T> {
  const script = `import json, sys
from osgeo import gdal
gdal.UseExceptions()
request = json.loads(sys.stdin.read())
out = []
for f in request["files"]:
    try:
        out.append(gdal.Info(f, options=["-json", *request["options"]]))
    except Exception as e:
        sys.exit(f"{f}: {e}")
print(json.dumps(out))`;
  const infos = JSON.parse(
    execFileSync(DEFAULT_GDAL_PYTHON, ['-c', script], {
      input: JSON.stringify({ files, options }),
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    }),
  ) as T[];
  return new Map(infos.map((info, i) => [files[i]!, info]));
}
