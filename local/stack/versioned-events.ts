import { createHash } from 'node:crypto';
import { decodeEventKey } from '../../lib/trigger/s3-event.js';

/**
 * The version id the local bucket gives an object: s3rver keeps no versions, so a version is
 * named by what identifies it here (bucket, key, ETag). Reads by it reach s3rver, which ignores
 * it; the ETag pin that goes with every pinned read (lib/source/source-pin.ts) is what refuses
 * other bytes, as the version id does on S3.
 */
export function localVersionId(bucket: string, key: string, etag: string): string {
  // The ETag as events carry it (no quotes) or as HEAD answers it (quoted): the same version.
  const bare = etag.replace(/"/g, '');
  return createHash('sha256').update(`${bucket}\n${key}\n${bare}`).digest('base64url').slice(0, 32);
}

interface EventRecord {
  s3?: { bucket?: { name?: string }; object?: { key?: string; eTag?: string; versionId?: string } };
}

/**
 * An S3 event record of a versioned bucket, as S3 sends it: with the new object's version id
 * (the template enables versioning on the data bucket, so every upload on AWS has one, and
 * every read of a run's source then names it: s3:GetObjectVersion, not s3:GetObject).
 */
export function withVersionId(record: unknown): unknown {
  const r = record as EventRecord;
  const o = r.s3?.object;
  if (!o?.key || !o.eTag || o.versionId) return record;
  const key = decodeEventKey(o.key);
  const versionId = localVersionId(r.s3?.bucket?.name ?? '', key, o.eTag);
  return { ...r, s3: { ...r.s3, object: { ...o, versionId } } };
}

/**
 * The object a write request names (path-style: /bucket/key), if it is one S3 answers with a
 * version; `inBody`: the reply names the new object's ETag in its XML body (a completed multipart
 * upload, a copy), not in its ETag header.
 */
function writtenObject(
  method: string,
  url: string,
  copySource?: string,
): { bucket: string; key: string; inBody: boolean } | undefined {
  const [path = '', query = ''] = url.split('?');
  const [bucket = '', ...rest] = path.replace(/^\//, '').split('/');
  if (!bucket || rest.length === 0) return undefined;
  const q = new URLSearchParams(query);
  const complete = method === 'POST' && q.has('uploadId');
  if (!complete && !(method === 'PUT' && [...q.keys()].every((k) => k === 'x-id'))) return undefined;
  return {
    bucket: decodeURIComponent(bucket),
    key: rest.map(decodeURIComponent).join('/'),
    inBody: complete || Boolean(copySource),
  };
}

/**
 * The `x-amz-version-id` a versioned bucket answers a PutObject, CompleteMultipartUpload or
 * CopyObject with (the same id the write's event carries), from the reply's ETag: its header for
 * a PUT, its XML body for the others. Undefined for any other request or reply.
 */
export function versionOfWrite(
  request: { method: string; url: string; copySource?: string },
  reply: { status: number; etag?: string; body?: string },
): string | undefined {
  const object = writtenObject(request.method.toUpperCase(), request.url, request.copySource);
  if (!object || reply.status !== 200) return undefined;
  const etag = object.inBody
    ? /<ETag>([^<]+)<\/ETag>/
        .exec(reply.body ?? '')?.[1]
        ?.replaceAll('&quot;', '"')
        .replaceAll('&#34;', '"')
    : reply.etag;
  return etag ? localVersionId(object.bucket, object.key, etag) : undefined;
}

/** A reply that must be read to name the version (its ETag is in the body). */
export const versionInBody = (method: string, url: string, copySource?: string) =>
  writtenObject(method.toUpperCase(), url, copySource)?.inBody === true;
