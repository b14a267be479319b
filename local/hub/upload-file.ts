import { basename } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { markPhase } from '../../lib/log/phase-marks.js';
import type { ObjectStore } from '../../lib/store/object-store.js';
import { uploadFileMultipart } from '../../lib/store/s3-multipart-upload.js';
import { encodeEventKey } from '../../lib/trigger/s3-event.js';
import type { StartRunOutcome } from '../../lib/trigger/start-run-for-upload.js';
import { incomingKey } from './incoming-key.js';
import { withJobSidecar } from './job-sidecar.js';

export interface FileUploadOptions {
  readonly name?: string;
  readonly job?: Record<string, unknown>;
  readonly onProgress?: (sentBytes: number, totalBytes: number) => void;
  readonly signal?: AbortSignal;
}

export type UploadOutcome = StartRunOutcome & { readonly key: string; readonly parts: number };

/** What each upload's S3 event did, by the event's key: told by the upload trigger, awaited by the upload. */
export interface UploadOutcomes {
  readonly waiting: Map<string, (outcome: StartRunOutcome) => void>;
  /** Whether the bucket sends an event of this type for this key (its notification configuration). */
  announces(eventName: UploadEvent, key: string): boolean;
}

/** How the hub's uploads land: a file in parts, a collection's manifest in one PUT. */
export type UploadEvent = 'ObjectCreated:CompleteMultipartUpload' | 'ObjectCreated:Put';

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
  const uploaded = incomingKey(options.name ?? basename(file));
  return withOutcome(deps.outcomes, 'ObjectCreated:CompleteMultipartUpload', uploaded, async (key) => {
    const { parts } = await withJobSidecar(deps.store, key, options.job, () =>
      uploadFileMultipart(deps.s3, deps.store.bucket, key, file, {
        onProgress: options.onProgress,
        signal: options.signal,
      }),
    );
    markPhase('hub: source stored');
    return { parts };
  });
}

/**
 * Stores what `store` writes under `key` (the object whose event starts a run), then waits for
 * what that event did; an upload that fails is forgotten, so no outcome waits for it. An upload
 * the bucket sends no event for starts nothing, as on AWS: said at once rather than awaited.
 */
export async function withOutcome<T extends object>(
  outcomes: UploadOutcomes,
  event: UploadEvent,
  key: string,
  store: (key: string) => Promise<T>,
): Promise<StartRunOutcome & T & { readonly key: string }> {
  if (!outcomes.announces(event, key)) {
    const reason = `the bucket's notification configuration (serverless.yml) sends no ${event} event for ${key}`;
    return { outcome: 'ignored', reason, ...(await store(key)), key };
  }
  const eventKey = encodeEventKey(key);
  const outcome = new Promise<StartRunOutcome>((resolve) => outcomes.waiting.set(eventKey, resolve));
  try {
    const stored = await store(key);
    return { ...(await outcome), ...stored, key };
  } catch (error) {
    outcomes.waiting.delete(eventKey);
    throw error;
  }
}
