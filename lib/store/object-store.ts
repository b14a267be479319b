import type { Readable } from 'node:stream';

export interface ObjectHead {
  readonly bytes: number;
  readonly etag: string;
  readonly versionId?: string;
}

export interface RequestOptions {
  /** Aborts the request; every call is also bounded by the configured request timeout. */
  readonly signal?: AbortSignal;
}

/** One version of an object: a read pinned to it fails rather than return other bytes. */
export interface ObjectPin {
  readonly versionId?: string;
  /** Unquoted. */
  readonly etag?: string;
}

export interface ReadOptions extends RequestOptions {
  /** Read this version only: ObjectVersionGoneError (or head → undefined) once it is gone. */
  readonly pin?: ObjectPin;
}

/**
 * The object store (S3 on AWS, s3rver locally). Domain code depends on this interface; only
 * the adapter imports the SDK.
 */
export interface ObjectStore {
  readonly bucket: string;
  head(key: string, options?: ReadOptions): Promise<ObjectHead | undefined>;
  /** Reads bytes [start, end] inclusive: a ranged GET, never the whole object. */
  getRange(key: string, start: number, end: number, options?: ReadOptions): Promise<Uint8Array>;
  getText(key: string, options?: RequestOptions): Promise<string>;
  getStream(key: string, options?: RequestOptions): Promise<Readable>;
  /** Uploads a local file; resolves only once the object is durable, with its ETag and size. */
  putFile(
    key: string,
    path: string,
    options?: RequestOptions & { contentType?: string },
  ): Promise<ObjectHead>;
  putText(
    key: string,
    body: string,
    options?: RequestOptions & { contentType?: string },
  ): Promise<ObjectHead>;
  /**
   * Writes an object from a stream of chunks without holding it whole: a multipart upload
   * in parts of a few MiB where it is large (docs/architecture.md, "Finalize and outputs").
   */
  putStream(
    key: string,
    chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
    options?: RequestOptions & { contentType?: string },
  ): Promise<ObjectHead>;
  /** Streams a local download of the object to `path`. */
  download(key: string, path: string, options?: ReadOptions): Promise<ObjectHead>;
  list(prefix: string, options?: RequestOptions): AsyncIterable<{ key: string; bytes: number; etag: string }>;
  /** Removes the object; with `versionId`, that version for good (no delete marker is left). */
  delete(key: string, options?: RequestOptions & { versionId?: string }): Promise<void>;
}
