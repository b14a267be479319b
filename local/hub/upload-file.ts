import { basename } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { markPhase } from '../../lib/log/phase-marks.js';
import type { ObjectStore } from '../../lib/store/object-store.js';
import { uploadFileMultipart } from '../../lib/store/s3-multipart-upload.js';
import { encodeEventKey } from '../../lib/trigger/s3-event.js';
import type { StartRunOutcome } from '../../lib/trigger/start-run-for-upload.js';
import { incomingKey } from './incoming-key.js';

export interface FileUploadOptions {
  readonly name?: string;
  readonly job?: Record<string, unknown>;
  readonly onProgress?: (sentBytes: number, totalBytes: number) => void;
  readonly signal?: AbortSignal;
}

export type UploadOutcome = StartRunOutcome & { readonly key: string; readonly parts: number };

/** What each upload's S3 event did, by the event's key: told by the upload trigger, awaited by the upload. */
export type UploadOutcomes = Map<string, (outcome: StartRunOutcome) => void>;

/**
 * A file into incoming/ as a user's `aws s3 cp` would put it (its job sidecar first, then the file
 * in parts: any size, each part bounded and retried alone); the upload's S3 event starts the run,
 * and this resolves with what that event did.
 */
export async function uploadFile(
  deps: { readonly s3: S3Client; readonly store: ObjectStore; readonly outcomes: UploadOutcomes },
  file: string,
  options: FileUploadOptions = {},
): Promise<UploadOutcome> {
  return withOutcome(deps.outcomes, incomingKey(options.name ?? basename(file)), async (key) => {
    if (options.job) await deps.store.putText(`${key}.job.json`, JSON.stringify(options.job));
    const { parts } = await uploadFileMultipart(deps.s3, deps.store.bucket, key, file, {
      onProgress: options.onProgress,
      signal: options.signal,
    });
    markPhase('hub: source stored');
    return { parts };
  });
}

/**
 * Stores what `store` writes under `key` (the object whose event starts a run), then waits for
 * what that event did; an upload that fails is forgotten, so no outcome waits for it.
 */
export async function withOutcome<T extends object>(
  outcomes: UploadOutcomes,
  key: string,
  store: (key: string) => Promise<T>,
): Promise<StartRunOutcome & T & { readonly key: string }> {
  const outcome = new Promise<StartRunOutcome>((resolve) => outcomes.set(encodeEventKey(key), resolve));
  try {
    const stored = await store(key);
    return { ...(await outcome), ...stored, key };
  } catch (error) {
    outcomes.delete(encodeEventKey(key));
    throw error;
  }
}
