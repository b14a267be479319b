import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import FilesystemStore from 's3rver/lib/stores/filesystem.js';

// What s3rver keeps of a request's headers as an object's metadata (S3Object.ALLOWED_METADATA).
const ALLOWED = new Set([
  'cache-control',
  'content-disposition',
  'content-encoding',
  'content-language',
  'content-type',
  'expires',
  'website-redirect-location',
]);
// The object's MD5 (its ETag), inside the metadata file: no header can have this name.
const MD5 = ' md5';

type Metadata = Record<string, string>;

/** What s3rver's controllers give a store to write: a request's body, or a copy's bytes. */
interface StoredObject {
  readonly bucket: string;
  readonly key: string;
  readonly content: Buffer | Readable;
  readonly metadata: Metadata;
}

const md5Of = async (file: string) =>
  createHash('md5')
    .update(await readFile(file))
    .digest('hex');

const notFound = (error: unknown) => (error as { code?: string }).code === 'ENOENT';

/**
 * s3rver's filesystem store with an object's MD5 kept in its metadata file: two files an object
 * instead of three. Creating a file is the dearest thing a PUT does here (ext4 looks past every
 * inode freed in the last 30 s for each new one), and a run PUTs one object a sub-tile.
 * A bucket's CORS and website configurations are kept in memory once read: s3rver's middleware
 * reads both from disk for every request (two failed opens a PUT, about a tenth of its main
 * thread's CPU on a 700-tile run), and only this store writes them. Everything else, layout and
 * answers, is s3rver's own.
 */
export class MetadataMd5Store extends FilesystemStore {
  readonly #bucketConfigs = new Map<string, Promise<unknown>>();

  override getSubresource(bucket: string, key: string | undefined, resourceType: string): Promise<unknown> {
    if (key !== undefined) return super.getSubresource(bucket, key, resourceType);
    const name = `${bucket}/${resourceType}`;
    let config = this.#bucketConfigs.get(name);
    if (!config) {
      config = super.getSubresource(bucket, key, resourceType);
      this.#bucketConfigs.set(name, config);
      // A failed read is not kept: the next request reads again (unless a write replaced it).
      const read = config;
      read.catch(() => {
        if (this.#bucketConfigs.get(name) === read) this.#bucketConfigs.delete(name);
      });
    }
    return config;
  }

  override async putSubresource(bucket: string, key: string | undefined, resource: { type: string }) {
    this.#forget(bucket);
    try {
      await super.putSubresource(bucket, key, resource);
    } finally {
      this.#forget(bucket);
    }
  }

  override async deleteSubresource(bucket: string, key: string | undefined, resourceType: string) {
    this.#forget(bucket);
    try {
      await super.deleteSubresource(bucket, key, resourceType);
    } finally {
      this.#forget(bucket);
    }
  }

  override async putBucket(bucket: string) {
    this.#forget(bucket);
    return super.putBucket(bucket);
  }

  override async deleteBucket(bucket: string) {
    try {
      return await super.deleteBucket(bucket);
    } finally {
      this.#forget(bucket);
    }
  }

  /** Forgotten before and after a write: a read that overlapped it is never what is kept. */
  #forget(bucket: string): void {
    for (const name of this.#bucketConfigs.keys()) {
      if (name.startsWith(`${bucket}/`)) this.#bucketConfigs.delete(name);
    }
  }

  /**
   * s3rver's own answered once its hashing stream had passed the last byte on, before the file
   * was written (a Buffer's at once): a GET right after the PUT could read a short object, and a
   * failed write (a full disk) was an error no one listened to, which ended the stand-in. Here
   * the answer waits for the file, or is the write's error. A multipart upload's completion
   * comes through here too.
   */
  override async putObject(object: StoredObject): Promise<{ size: number; md5: string }> {
    const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const hash = createHash('md5');
    let size = 0;
    if (Buffer.isBuffer(object.content)) {
      await writeFile(objectPath, object.content);
      hash.update(object.content);
      size = object.content.length;
    } else {
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(object.content, counted, createWriteStream(objectPath));
    }
    const md5 = hash.digest('hex');
    await this.putMetadata(object.bucket, object.key, object.metadata, md5);
    return { size, md5 };
  }

  override async putMetadata(bucket: string, key: string, metadata: Metadata, md5?: string): Promise<void> {
    const kept: Metadata = {};
    for (const [name, value] of Object.entries(metadata)) {
      if (ALLOWED.has(name) || name.startsWith('x-amz-meta-')) kept[name] = value;
    }
    // A copy with replaced metadata passes no MD5: the copied object's bytes give it.
    kept[MD5] = md5 ?? (await md5Of(this.getResourcePath(bucket, key, 'object')));
    await writeFile(this.getResourcePath(bucket, key, 'metadata.json'), JSON.stringify(kept));
  }

  override async getMetadata(bucket: string, key: string): Promise<Record<string, unknown>> {
    const objectPath = this.getResourcePath(bucket, key, 'object');
    // Throws ENOENT when there is no such object, as s3rver's callers expect.
    const info = await stat(objectPath);
    const stored = await readFile(this.getResourcePath(bucket, key, 'metadata.json'), 'utf8')
      .then((text) => JSON.parse(text) as Metadata)
      .catch((error: unknown) => {
        if (notFound(error)) return {} as Metadata;
        throw error;
      });
    const { [MD5]: md5, ...metadata } = stored;
    return {
      ...metadata,
      etag: JSON.stringify(md5 ?? (await md5Of(objectPath))),
      'last-modified': info.mtime.toUTCString(),
      'content-length': info.size,
    };
  }

  override async copyObject(
    srcBucket: string,
    srcKey: string,
    destBucket: string,
    destKey: string,
    replacementMetadata?: Metadata,
  ): Promise<Record<string, unknown>> {
    const from = (resource: string) => this.getResourcePath(srcBucket, srcKey, resource);
    const to = (resource: string) => this.getResourcePath(destBucket, destKey, resource);
    if (from('object') !== to('object')) {
      await mkdir(dirname(to('object')), { recursive: true });
      await copyFile(from('object'), to('object'));
      if (!replacementMetadata) await copyFile(from('metadata.json'), to('metadata.json'));
    }
    if (replacementMetadata) await this.putMetadata(destBucket, destKey, replacementMetadata);
    return this.getMetadata(destBucket, destKey);
  }
}
