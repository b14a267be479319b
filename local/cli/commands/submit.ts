import { basename } from 'node:path';
import type { Command } from 'commander';
import type { S3ObjectRef } from '../../../lib/store/s3-copy.js';
import { plainFileName } from '../../server/plain-file-name.js';
import { CliError } from '../cli-error.js';
import { checkRoomForCopy } from '../free-space.js';
import { checkInputFile } from '../input-file.js';
import { type CliIo, emit, ZOOM_HELP, zoomOption } from '../io.js';
import type { SubmitResult } from '../operator/operator.js';
import { type TargetOptions, targetOptions, withOperator } from '../operator/operator-of.js';
import { stopSignals } from '../stop-signals.js';
import { createUploadProgress } from '../upload-progress.js';

/** `s3://bucket/key`: a source already in S3 (a stage copies it server-side). */
function s3Url(given: string): S3ObjectRef | undefined {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.+)$/.exec(given);
  if (given.startsWith('s3://') && !m) throw new CliError(`${given}: expected s3://<bucket>/<key>`);
  return m ? { bucket: m[1]!, key: m[2]! } : undefined;
}

const submitted = (r: SubmitResult) =>
  [
    `${r.outcome}: run ${r.runId ?? '-'}${r.reason ? ` (${r.reason})` : ''}`,
    r.console ? `execution: ${r.console}` : '',
  ]
    .filter(Boolean)
    .join('\n');

type Opts = TargetOptions & { json?: boolean; zoom?: number | string };

/** `geohub submit`: a file sent, or an object in S3 copied, to a running `geohub up` or a stage. */
export function registerSubmit(program: Command, io: CliIo): void {
  targetOptions(
    program
      .command('submit')
      .description(
        'start a run: upload <file> to the incoming/ prefix of a running `geohub up` or a deployed stage (on a stage, an s3://bucket/key is copied there)',
      )
      .argument('<file>')
      .option('--zoom <z>', ZOOM_HELP, zoomOption)
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (file: string, opts: Opts) => {
    // Ctrl-C (or SIGTERM) stops the submit, which aborts what it began, rather than killing the
    // CLI with an upload half made.
    const signals = stopSignals();
    const stop = new AbortController();
    void signals.until().then(() => stop.abort());
    try {
      await submit(file, opts, stop.signal);
    } finally {
      signals.dispose();
    }
  });

  async function submit(file: string, opts: Opts, signal: AbortSignal) {
    const object = s3Url(file);
    if (object) {
      const r = await withOperator(io, opts, async (op) => {
        if (!op.submitObject)
          throw new CliError(
            `${op.where} takes files from this machine: an s3:// source is for --stage <name>`,
          );
        const copying = createUploadProgress(io.stderr, Date.now, 'copying in the bucket');
        return op
          .submitObject(object, { zoom: opts.zoom, signal, onCopied: (n, total) => copying.update(n, total) })
          .finally(() => copying.stop());
      });
      emit(io, opts.json, r, () => submitted(r));
      if (r.outcome === 'rejected' || r.outcome === 'ignored') io.exitCode = 1;
      return;
    }
    // The file is read here, as the user, and streamed: no server opens a path it is sent.
    const input = await checkInputFile(file);
    // The object's name must be a plain file name (receive-upload.ts): said before a byte is sent.
    const name = plainFileName.safeParse(basename(input.path));
    if (!name.success) {
      throw new CliError(
        `cannot send ${JSON.stringify(file)}: its name must be ${name.error.issues[0]!.message}`,
      );
    }
    const r = await withOperator(io, opts, async (op) => {
      // A local up keeps a copy in its bucket, as `geohub run` does: the same checks first.
      if (op.where.startsWith('geohub up')) await checkRoomForCopy(file, input.path);
      const sending = createUploadProgress(io.stderr);
      const storing = createUploadProgress(io.stderr, Date.now, 'storing in the bucket');
      return op
        .submit(input, {
          zoom: opts.zoom,
          signal,
          onSent: (sent, total) => sending.update(sent, total),
          onStored: (stored, total) => {
            sending.stop();
            storing.update(stored, total);
          },
        })
        .finally(() => {
          sending.stop();
          storing.stop();
        });
    });
    emit(io, opts.json, r, () => submitted(r));
    if (r.outcome === 'rejected' || r.outcome === 'ignored') io.exitCode = 1;
  }
}
