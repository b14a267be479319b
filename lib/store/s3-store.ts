import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { abortOf } from '../aws/abort-of.js';
import { ObjectAccessDeniedError, ObjectReadError, ObjectVersionGoneError } from './errors.js';
import type { ObjectHead, ObjectPin, ObjectStore, ReadOptions } from './object-store.js';

/** Up to this size an upload is sent from memory, so that the SDK can retry it. */
export const BUFFERED_UPLOAD_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The client with `signal` on every request it sends. lib-storage's Upload.abort() only rejects
 * done(): the part or PUT in flight goes on, its socket open until the request timeout. Through
 * this the cancel ends the request itself (test/integration/store/s3-abort.test.ts).
 */
function withSignal(s3: S3Client, signal: AbortSignal): S3Client {
  const send = (command: Parameters<S3Client['send']>[0], options?: { abortSignal?: AbortSignal }) =>
    s3.send(command, { ...options, abortSignal: signal });
  return Object.create(s3, { send: { value: send } }) as S3Client;
}

/** A pinned read's parameters: the version, and the ETag it must still have (If-Match). */
const pinOf = (pin?: ObjectPin) => ({
  ...(pin?.versionId ? { VersionId: pin.versionId } : {}),
  ...(pin?.etag ? { IfMatch: `"${pin.etag}"` } : {}),
});

/** S3's answers when the pinned version is not there: If-Match failed, or no such version. */
function isVersionGone(error: unknown, pin?: ObjectPin): boolean {
  if (!pin) return false;
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.$metadata?.httpStatusCode === 412 || e.name === 'NoSuchVersion' || isNotFound(error);
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return error instanceof NotFound || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/** The ObjectStore on S3 (or s3rver, through the client's endpoint). */
export function createS3Store(s3: S3Client, bucket: string): ObjectStore {
  const getBody = async (key: string, options?: ReadOptions, range?: string) => {
    let r: GetObjectCommandOutput;
    try {
      r = await s3.send(
        new GetObjectCommand({ Bucket: bucket, Key: key, Range: range, ...pinOf(options?.pin) }),
        abortOf(options),
      );
    } catch (error) {
      if (isVersionGone(error, options?.pin))
        throw new ObjectVersionGoneError(`s3://${bucket}/${key}: the version read is gone`, { cause: error });
      throw error;
    }
    if (!r.Body) throw new ObjectReadError(`s3://${bucket}/${key} has no body`);
    return r;
  };

  return {
    bucket,
    async head(key, options) {
      try {
        const r = await s3.send(
          new HeadObjectCommand({ Bucket: bucket, Key: key, ...pinOf(options?.pin) }),
          abortOf(options),
        );
        return { bytes: r.ContentLength ?? 0, etag: r.ETag ?? '', versionId: r.VersionId };
      } catch (error) {
        if (isNotFound(error) || isVersionGone(error, options?.pin)) return undefined;
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 403) {
          const what = options?.pin?.versionId ? `version ${options.pin.versionId} of ` : '';
          const needs = options?.pin?.versionId ? 's3:GetObjectVersion' : 's3:GetObject';
          throw new ObjectAccessDeniedError(
            `HeadObject of ${what}s3://${bucket}/${key} refused: 403 Forbidden (the caller's role must allow ${needs} on it; without s3:ListBucket a missing key is refused so too)`,
            { cause: error },
          );
        }
        throw error;
      }
    },
    async getRange(key, start, end, options) {
      const r = await getBody(key, options, `bytes=${start}-${end}`);
      return r.Body!.transformToByteArray();
    },
    async getText(key, options) {
      const r = await getBody(key, options);
      return r.Body!.transformToString('utf8');
    },
    async getStream(key, options) {
      const r = await getBody(key, options);
      return r.Body as Readable;
    },
    async putFile(key, path, options) {
      const { size } = await stat(path);
      // The SDK cannot retry a request whose body was a consumed stream: S3's routine 503
      // SlowDown would fail the upload at once. A buffer is re-sent on each attempt.
      const body = size <= BUFFERED_UPLOAD_MAX_BYTES ? await readFile(path) : createReadStream(path);
      const r = await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentLength: size,
          ContentType: options?.contentType,
        }),
        abortOf(options),
      );
      return { bytes: size, etag: r.ETag ?? '', versionId: r.VersionId };
    },
    async putText(key, body, options) {
      const r = await s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: options?.contentType }),
        abortOf(options),
      );
      return { bytes: Buffer.byteLength(body), etag: r.ETag ?? '', versionId: r.VersionId };
    },
    async putStream(key, chunks, options) {
      let bytes = 0;
      async function* counted() {
        for await (const chunk of chunks) {
          const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
          bytes += buffer.byteLength;
          yield buffer;
        }
      }
      // Parts of 8 MiB, two in flight: memory stays bounded whatever the object's size.
      const upload = new Upload({
        client: options?.signal ? withSignal(s3, options.signal) : s3,
        params: {
          Bucket: bucket,
          Key: key,
          Body: Readable.from(counted()),
          ContentType: options?.contentType,
        },
        partSize: 8 * 1024 * 1024,
        queueSize: 2,
      });
      const abort = () => void upload.abort();
      options?.signal?.addEventListener('abort', abort, { once: true });
      try {
        const r = await upload.done();
        return { bytes, etag: r.ETag ?? '', versionId: r.VersionId };
      } finally {
        options?.signal?.removeEventListener('abort', abort);
      }
    },
    async download(key, path, options) {
      const r = await getBody(key, options);
      await pipeline(r.Body as Readable, createWriteStream(path), { signal: options?.signal });
      return { bytes: r.ContentLength ?? 0, etag: r.ETag ?? '', versionId: r.VersionId };
    },
    async *list(prefix, options) {
      let token: string | undefined;
      do {
        const page = await s3.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
          abortOf(options),
        );
        for (const o of page.Contents ?? []) yield { key: o.Key!, bytes: o.Size ?? 0, etag: o.ETag ?? '' };
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async delete(key, options) {
      const version = options?.versionId ? { VersionId: options.versionId } : {};
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, ...version }), abortOf(options));
    },
  } satisfies ObjectStore;
}

export type { ObjectHead };
