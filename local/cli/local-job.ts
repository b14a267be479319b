import { readFile, stat } from 'node:fs/promises';
import { InvalidJobParamsError } from '../../lib/split/errors.js';
import {
  type JobParams,
  MAX_SIDECAR_BYTES,
  parseJobParams,
  sidecarKeyFor,
} from '../../lib/split/job-params.js';
import { CliError } from './cli-error.js';

/**
 * The job of a local run, as the upload trigger reads it on S3: `--job <file>`, else a
 * `<file>.job.json` next to the input if there is one. Sized before it is read, validated
 * with the same strict schema; `--zoom` and `--s-srs` win over the sidecar's zoom and sourceCrs.
 */
export async function readLocalJob(
  input: string,
  jobOption?: string,
  zoom?: number | string,
  sourceCrs?: string,
): Promise<JobParams> {
  const path = jobOption ?? sidecarKeyFor(input);
  const s = await stat(path).catch(() => undefined);
  if (!s && jobOption !== undefined) throw new CliError(`cannot read --job ${jobOption}: no such file`);
  let job: JobParams = {};
  if (s) {
    if (!s.isFile()) throw new CliError(`${path} is not a regular file`);
    if (s.size > MAX_SIDECAR_BYTES) {
      throw new CliError(`${path} is ${s.size} bytes; a job sidecar is at most ${MAX_SIDECAR_BYTES}`);
    }
    try {
      job = parseJobParams(await readFile(path, 'utf8'), path);
    } catch (error) {
      if (error instanceof InvalidJobParamsError) throw new CliError(error.message, 1, { cause: error });
      throw new CliError(`cannot read ${path}: ${(error as Error).message}`, 1, { cause: error });
    }
  }
  const given = {
    ...job,
    ...(zoom === undefined ? {} : { zoom }),
    ...(sourceCrs === undefined ? {} : { sourceCrs }),
  };
  // Validated as a sidecar is: the options go through the same schema.
  try {
    return parseJobParams(JSON.stringify(given), 'the job');
  } catch (error) {
    throw new CliError((error as Error).message, 1, { cause: error });
  }
}
