import { readFileSync } from 'node:fs';

/**
 * The S3 stand-in's data directory, from its process's command line (`emulator-main s3rver
 * <dataDir>`): where a test makes an object no request could make in test time, such as a
 * sparse file of several GiB (s3rver gives an object's size from the file's).
 */
export function s3rverDirectory(pids: readonly number[]): string {
  for (const pid of pids) {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const at = args.indexOf('s3rver');
    if (at > 0 && args[at + 1]) return args[at + 1]!;
  }
  throw new Error(`no S3 stand-in among the processes ${pids.join(', ')}`);
}
