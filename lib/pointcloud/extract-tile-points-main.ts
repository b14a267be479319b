/**
 * The point extractor as a process: `node extract-tile-points-main.js <request JSON>` prints one
 * JSON summary line on stdout (see extract-tile-points.ts). The operation runs it through its
 * ToolRunner rather than in the worker itself, because:
 * - the attempt's budget and cancellation then apply to decoding too (the process group is
 *   terminated like any tool's), which an in-process loop could not honour;
 * - decoding is CPU-bound and would stall the worker's heartbeats;
 * - laz-perf is one WASM instance per process with process-wide state, and a corrupt file can
 *   leave it unusable: a fresh process per tile starts clean and frees its memory on exit.
 */
import { ZodError } from 'zod';
import { zodProblems } from '../model/zod-problems.js';
import { extractTilePoints, extractTileRequestSchema } from './extract-tile-points.js';

/** sysexits EX_DATAERR: the input is bad; another attempt cannot help. */
const EXIT_DATA = 65;
const EXIT_FAILURE = 1;

process.title = 'geohub-pointcloud-extract';

/** Failures caused by the file itself (not by this machine or the filesystem). */
function isDataError(error: unknown): boolean {
  if (!(error instanceof Error)) return true; // laz-perf throws bare numbers/strings on bad data
  // WebAssembly.RuntimeError: laz-perf trapped on bytes it could not decode.
  if (error.name === 'RuntimeError' || error instanceof RangeError) return true;
  return /^(Corrupt|Truncated|Implausible|Unsupported|Unrecognised)\w*Error$/.test(error.name);
}

async function main(argv: readonly string[]): Promise<number> {
  let request: ReturnType<typeof extractTileRequestSchema.parse>;
  try {
    request = extractTileRequestSchema.parse(JSON.parse(argv[0] ?? ''));
  } catch (error) {
    const detail = error instanceof ZodError ? zodProblems(error) : String(error);
    process.stderr.write(`usage: extract-tile-points-main <request JSON>: ${detail}\n`);
    return 64; // EX_USAGE
  }
  try {
    const summary = await extractTilePoints(request);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return 0;
  } catch (error) {
    const name = error instanceof Error ? error.name : 'LazPerfError';
    const message = error instanceof Error ? error.message : `laz-perf failed: ${String(error)}`;
    if (name === 'UnsupportedSourceError') {
      // A valid file this engine cannot read: terminal like bad data, but not called invalid.
      process.stderr.write(`Unsupported LAS/LAZ source (${name}): ${message}\n`);
      return EXIT_DATA;
    }
    if (isDataError(error)) {
      // Worded so classifyFailure (lib/operations/classify-failure.ts) sees a data failure.
      process.stderr.write(`Invalid LAS/LAZ source (${name}): ${message}\n`);
      return EXIT_DATA;
    }
    process.stderr.write(`${name}: ${message}\n`);
    return EXIT_FAILURE;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`extract-tile-points-main: ${String(error)}\n`);
    process.exitCode = EXIT_FAILURE;
  },
);
