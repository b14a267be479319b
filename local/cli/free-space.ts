import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { CliError } from './cli-error.js';

const GiB = 1024 ** 3;
const gb = (bytes: number) => `${(bytes / GiB).toFixed(1)} GB`;

/**
 * The local S3 stand-in keeps its copy of the input under the temp directory (and, while a
 * multipart upload completes, its parts too): an input that cannot fit twice is refused
 * before anything is copied, rather than filling the disk (a sparse file counts at its size).
 */
export async function checkRoomForCopy(given: string, bytes: number, dir = tmpdir()): Promise<void> {
  const s = await statfs(dir);
  const free = s.bavail * s.bsize;
  const needed = 2 * bytes + 256 * 1024 * 1024;
  if (free < needed) {
    throw new CliError(
      `${given} is ${gb(bytes)}: the local stack copies it into ${dir}, which needs ${gb(needed)} free and has ${gb(free)}; free space there or set TMPDIR`,
    );
  }
}
