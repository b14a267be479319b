import { stat, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { CliError } from './cli-error.js';

const GiB = 1024 ** 3;
const gb = (bytes: number) => `${(bytes / GiB).toFixed(1)} GB`;

/**
 * The local S3 stand-in keeps a full copy of the input under the temp directory (and, while a
 * multipart upload completes, its parts too), and it cannot keep holes. So, before anything is
 * copied: a sparse input (less than half of it allocated) is refused — copying would write all
 * of its apparent size — and so is an input that cannot fit twice in the free space there.
 */
export async function checkRoomForCopy(given: string, path: string, dir = tmpdir()): Promise<void> {
  const s = await stat(path);
  const allocated = s.blocks * 512;
  if (s.size > 64 * 1024 * 1024 && allocated < s.size / 2) {
    throw new CliError(
      `${given} is a sparse file (${gb(s.size)}, ${gb(allocated)} of it on disk): the local stack would copy all ${gb(s.size)}; write it out in full (e.g. gdal_translate) or run it on AWS`,
    );
  }
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  const needed = 2 * s.size + 256 * 1024 * 1024;
  if (free < needed) {
    throw new CliError(
      `${given} is ${gb(s.size)}: the local stack copies it into ${dir}, which needs ${gb(needed)} free and has ${gb(free)}; free space there or set TMPDIR`,
    );
  }
}
