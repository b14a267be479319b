import { ToolExitError, ToolStartError } from '../process/errors.js';
import { InvalidOperationParamsError, TileGridMismatchError, UnreadableSourceError } from './errors.js';

export type FailureKind = 'data' | 'retryable';

// What GDAL/PDAL print when the input itself is bad: retrying cannot help.
const DATA_PATTERNS = [
  /not recognized as (a )?(being in )?a supported file format/i,
  /not a TIFF/i,
  /TIFFReadDirectory|TIFFFetchDirectory|TIFFReadEncoded|IReadBlock failed/i,
  /Cannot compute bounding box|Unable to compute a transformation|failed to transform/i,
  /no (coordinate system|SRS|CRS)|missing (source )?(srs|crs)/i,
  /does not exist in the file system|No such file or directory/i,
  /truncated|corrupt|Invalid (LAS|LAZ|header|file)|Invalid LAS\/LAZ source/i,
  /Unsupported LAS\/LAZ source/i,
  // PDAL 2.8.4's own words for a file it cannot read (readers.las): the same answer every time.
  /Unsupported LAS input point format/i,
  /Invalid file signature/i,
];

// What a tool that cannot run at all prints (a library missing from the image): another worker
// may well have it; the data is not to blame.
const BROKEN_TOOL_PATTERNS = [/error while loading shared libraries/i];

// What a flaky network or an overloaded service looks like: another attempt may well succeed.
const TRANSIENT_PATTERNS = [
  /HTTP (response )?(code|error)[: ]*5\d\d/i,
  /timed? ?out|Connection (refused|reset)|resolve host/i,
];

/**
 * Separates terminal data failures (never retried) from failures worth another attempt.
 * Unknown failures are retryable: the queue's receive budget then moves them to the DLQ.
 */
export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof ToolStartError) return 'retryable';
  // The operation's own checks: bad parameters, or a tool that produced the wrong grid.
  if (
    error instanceof InvalidOperationParamsError ||
    error instanceof TileGridMismatchError ||
    error instanceof UnreadableSourceError
  )
    return 'data';
  if (error instanceof ToolExitError) {
    if (error.signal) return 'retryable'; // killed by someone else: the OOM killer, say
    if (TRANSIENT_PATTERNS.some((p) => p.test(error.stderr))) return 'retryable';
    // A broken install, not bad data: the loader's "No such file" must not read as a missing input.
    if (BROKEN_TOOL_PATTERNS.some((p) => p.test(error.stderr))) return 'retryable';
    if (DATA_PATTERNS.some((p) => p.test(error.stderr))) return 'data';
  }
  return 'retryable';
}
