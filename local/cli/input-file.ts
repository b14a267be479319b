import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError } from './cli-error.js';

export interface InputFile {
  readonly path: string;
  readonly bytes: number;
}

function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Checks an input before anything starts: a regular, readable, non-empty file whose size is
 * known. Never blocks: a FIFO is refused from its type, and the read probe opens non-blocking.
 */
export async function checkInputFile(given: string): Promise<InputFile> {
  if (given.trim() === '') throw new CliError('the input file name is empty');
  const path = resolve(given);
  let s: Stats;
  try {
    s = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code;
    throw new CliError(`cannot read ${given}: ${why}`, 1, { cause: error });
  }
  if (!s.isFile()) throw new CliError(`cannot read ${given}: it is ${kindOf(s)}, not a regular file`);
  if (s.size === 0) throw new CliError(`cannot read ${given}: the file is empty`);
  try {
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    await handle.close();
  } catch (error) {
    throw new CliError(`cannot read ${given}: permission denied`, 1, { cause: error });
  }
  return { path, bytes: s.size };
}
