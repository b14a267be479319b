import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { runIdSchema } from '../../lib/model/ids.js';
import { jobParamsSchema, MAX_SIDECAR_BYTES, tileParamsSchema } from '../../lib/split/job-params.js';
import type { LocalHub } from '../hub/local-hub.js';
import { HttpError } from './errors.js';
import { parse } from './http-request.js';
import { plainFileName } from './plain-file-name.js';
import { DEFAULT_MAX_UPLOAD_GB } from './upload-limit.js';
import { waitForRun } from './wait-for-run.js';

const uploadSchema = z
  .object({
    name: plainFileName,
    zoom: z
      .string()
      .regex(/^[0-9]{1,2}(-[0-9]{1,2})?$/, 'a zoom level or a range min-max')
      .transform((zoom) => (zoom.includes('-') ? zoom : Number(zoom)))
      .pipe(tileParamsSchema.shape.zoom.unwrap())
      .optional(),
    /** The whole job (`geohub run` on a running up: its sidecar and options), as the sidecar's JSON. */
    job: z
      .string()
      .max(MAX_SIDECAR_BYTES)
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'job: not JSON' });
          return z.NEVER;
        }
      })
      .pipe(jobParamsSchema)
      .optional(),
    /** `geohub run` copies this run's outputs on this machine: mirror its tiles (UploadLimits.mirrorRoot). */
    mirror: z.literal('1').optional(),
  })
  .strict()
  .refine((q) => q.zoom === undefined || q.job === undefined, 'give the zoom in the job, not both');

const tooLarge = (bytes: number, max: number) =>
  new HttpError(
    413,
    `the file is ${(bytes / 1e9).toFixed(1)} GB, above this geohub up's limit of ${(max / 1e9).toFixed(1)} GB (start it with --max-upload-gb to raise it)`,
  );

/** The response has been written by the handler itself. */
export const RESPONDED = Symbol('responded');

export interface UploadLimits {
  /** A larger body is refused with 413, before it is read (`geohub up --max-upload-gb`). */
  readonly maxBytes: number;
  /** A body that sends nothing for this long is dropped (a stalled client, not a slow one). */
  readonly bodyIdleMs: number;
  /** While the file goes on to the bucket, a progress line at least this often. */
  readonly progressEveryMs: number;
  /**
   * `geohub up`'s output mirror (lib/output/output-mirror.ts, per run): an upload sent with
   * `mirror=1` (`geohub run` on this up, which copies the outputs) gets its run a directory there.
   */
  readonly mirrorRoot?: string;
}

export const UPLOAD_LIMITS: UploadLimits = {
  maxBytes: DEFAULT_MAX_UPLOAD_GB * 1e9,
  bodyIdleMs: 120_000,
  progressEveryMs: 5_000,
};

/**
 * The request body is the file itself, streamed by `geohub submit` (running as the user who
 * can read it): the server never opens a path it is sent. It lands in a private temporary
 * directory, goes to the bucket by multipart upload, and is removed.
 *
 * Storing a multi-GB file in the bucket takes minutes (403 s for 4.3 GiB, docs/architecture.md),
 * longer than an HTTP client waits for response headers (Node's fetch: 300 s). So the answer
 * starts as soon as the body is in: NDJSON lines `{"stored","of"}` while the file goes to the
 * bucket, then one line with the outcome (or `{"error"}`).
 */
export async function receiveUpload(
  hub: LocalHub,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  timings: UploadLimits = UPLOAD_LIMITS,
): Promise<typeof RESPONDED> {
  const { name, zoom, job, mirror } = parse(uploadSchema, Object.fromEntries(url.searchParams));
  // Node's parser reads no more than a stated Content-Length; a chunked body states none.
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (!Number.isSafeInteger(declared))
    throw new HttpError(411, 'an upload states its length (Content-Length)');
  if (declared > timings.maxBytes) throw tooLarge(declared, timings.maxBytes);
  const dir = await mkdtemp(join(tmpdir(), 'geohub-up-upload-'));
  try {
    const file = join(dir, 'source');
    req.setTimeout(timings.bodyIdleMs);
    await pipeline(req, createWriteStream(file, { mode: 0o600 }));
    const line = (value: unknown) => res.write(`${JSON.stringify(value)}\n`);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    let stored = 0;
    const of = (await stat(file)).size;
    line({ stored, of });
    const beat = setInterval(() => line({ stored, of }), timings.progressEveryMs);
    // A sender gone before the answer (Ctrl-C) stops the store: the upload is aborted, no run starts.
    const left = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) left.abort();
    });
    try {
      const outcome = await hub.upload(file, {
        name,
        signal: left.signal,
        ...(zoom === undefined ? {} : { job: { zoom } }),
        ...(job === undefined || Object.keys(job).length === 0 ? {} : { job }),
        onProgress: (sent) => {
          stored = sent;
        },
      });
      // "started" means the run can be looked up: `geohub status` right after `submit` finds it.
      if (outcome.outcome === 'started') {
        // Made at once, while the split runs: the workers mirror the tiles made from then on.
        if (mirror && timings.mirrorRoot)
          await mkdir(join(timings.mirrorRoot, runIdSchema.parse(outcome.runId)), { mode: 0o700 });
        await waitForRun(
          { ledger: hub.ledger, executionStatus: (arn) => hub.executions.get(arn)?.status },
          outcome.runId,
          outcome.executionArn,
        );
      }
      line(outcome);
    } catch (error) {
      line({ error: (error as Error).message });
    } finally {
      clearInterval(beat);
      res.end();
    }
    return RESPONDED;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
