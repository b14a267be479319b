import type { SourceRef } from '../model/run.js';
import type { ObjectPin } from '../store/object-store.js';

/**
 * The version of its source a run reads, from the upload's S3 event: the version id where the
 * bucket is versioned, and the ETag. Every read — split's header, the workers' ranged reads and
 * cached copies — carries it, so a re-upload during a run never mixes two files' bytes
 * (docs/architecture.md). Undefined for runs recorded without an ETag (nothing to pin to).
 */
export function sourcePin(source: SourceRef): ObjectPin | undefined {
  if (!source.etag) return undefined;
  // `version` is the version id unless the bucket is unversioned, where it is the ETag itself.
  const versionId = source.version !== source.etag ? source.version : undefined;
  return { etag: source.etag, ...(versionId ? { versionId } : {}) };
}

/** How a pinned source is named in messages. */
export function describePin(source: SourceRef): string {
  const pin = sourcePin(source);
  const parts = [pin?.versionId ? `version ${pin.versionId}` : '', pin?.etag ? `ETag ${pin.etag}` : ''];
  return `s3://${source.bucket}/${source.key} (${parts.filter(Boolean).join(', ') || 'unpinned'})`;
}

/** The one line a run ends with when its source version is gone. */
export function sourceGoneReason(source: SourceRef): string {
  return (
    `source ${describePin(source)} was overwritten or deleted after the run started: ` +
    'its bytes are gone; upload the file again to start a new run'
  );
}
