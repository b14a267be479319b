import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCorsCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedEmulator } from '../../../local/stack/emulator-protocol.js';
import { newLocalCredentials } from '../../../local/stack/local-credentials.js';
import { startS3 } from '../../../local/stack/s3-emulator.js';

const Bucket = 'store-test';
const md5 = (bytes: Buffer) => `"${createHash('md5').update(bytes).digest('hex')}"`;
let dir: string;
let started: StartedEmulator;
let s3: S3Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'geohub-s3rver-store-'));
  const credentials = newLocalCredentials();
  started = await startS3(dir, credentials, () => {});
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${started.port}`,
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await s3.send(new CreateBucketCommand({ Bucket }));
});

afterAll(async () => {
  s3?.destroy();
  await started?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The files the stand-in keeps for the objects under a key's folder. */
const filesOf = (folder: string) => readdirSync(join(dir, Bucket, folder)).sort();

describe("the S3 stand-in's store (an object's MD5 in its metadata file)", () => {
  it('keeps two files an object and answers ETag, type and user metadata as S3 does', async () => {
    const body = randomBytes(20_000);
    const put = await s3.send(
      new PutObjectCommand({
        Bucket,
        Key: 'a/tile.tif',
        Body: body,
        ContentType: 'image/tiff',
        Metadata: { origin: 'test' },
      }),
    );
    expect(put.ETag).toBe(md5(body));
    expect(filesOf('a')).toEqual(['tile.tif._S3rver_metadata.json', 'tile.tif._S3rver_object']);

    const head = await s3.send(new HeadObjectCommand({ Bucket, Key: 'a/tile.tif' }));
    expect(head).toMatchObject({ ETag: md5(body), ContentLength: 20_000, ContentType: 'image/tiff' });
    expect(head.Metadata).toEqual({ origin: 'test' });
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: 'a/tile.tif' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
    expect(got.ETag).toBe(md5(body));

    const listed = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: 'a/' }));
    expect(listed.Contents?.map((o) => [o.Key, o.ETag, o.Size])).toEqual([['a/tile.tif', md5(body), 20_000]]);
  });

  it('copies an object with its metadata, or with metadata replaced, and deletes it whole', async () => {
    const body = randomBytes(5_000);
    await s3.send(
      new PutObjectCommand({ Bucket, Key: 'b/src.bin', Body: body, ContentType: 'application/x-test' }),
    );
    await s3.send(new CopyObjectCommand({ Bucket, Key: 'b/same.bin', CopySource: `${Bucket}/b/src.bin` }));
    await s3.send(
      new CopyObjectCommand({
        Bucket,
        Key: 'c/replaced.bin',
        CopySource: `${Bucket}/b/src.bin`,
        MetadataDirective: 'REPLACE',
        ContentType: 'text/plain',
        Metadata: { kind: 'copy' },
      }),
    );
    const same = await s3.send(new HeadObjectCommand({ Bucket, Key: 'b/same.bin' }));
    expect(same).toMatchObject({ ETag: md5(body), ContentType: 'application/x-test', ContentLength: 5_000 });
    const replaced = await s3.send(new HeadObjectCommand({ Bucket, Key: 'c/replaced.bin' }));
    expect(replaced).toMatchObject({ ETag: md5(body), ContentType: 'text/plain' });
    expect(replaced.Metadata).toEqual({ kind: 'copy' });
    expect(filesOf('c')).toEqual(['replaced.bin._S3rver_metadata.json', 'replaced.bin._S3rver_object']);

    await s3.send(new DeleteObjectCommand({ Bucket, Key: 'b/src.bin' }));
    await expect(s3.send(new HeadObjectCommand({ Bucket, Key: 'b/src.bin' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
    expect(filesOf('b')).toEqual(['same.bin._S3rver_metadata.json', 'same.bin._S3rver_object']);
  });

  it('assembles a multipart upload and answers its ETag', async () => {
    const body = randomBytes(11 * 1024 * 1024);
    const upload = new Upload({
      client: s3,
      params: { Bucket, Key: 'd/large.bin', Body: body },
      partSize: 5 * 1024 * 1024,
    });
    const done = await upload.done();
    const head = await s3.send(new HeadObjectCommand({ Bucket, Key: 'd/large.bin' }));
    expect(head.ContentLength).toBe(body.length);
    // S3's multipart ETag, not the MD5 of the bytes: the MD5 of the parts' MD5s, and their count.
    const MiB = 1024 * 1024;
    const parts = [body.subarray(0, 5 * MiB), body.subarray(5 * MiB, 10 * MiB), body.subarray(10 * MiB)];
    const ofParts = createHash('md5')
      .update(Buffer.concat(parts.map((p) => createHash('md5').update(p).digest())))
      .digest('hex');
    expect(done.ETag).toBe(`"${ofParts}-3"`);
    expect(head.ETag).toBe(done.ETag);
    const got = await s3.send(
      new GetObjectCommand({ Bucket, Key: 'd/large.bin', Range: 'bytes=6000000-6000999' }),
    );
    expect(
      Buffer.from(await got.Body!.transformToByteArray()).equals(body.subarray(6_000_000, 6_001_000)),
    ).toBe(true);
  });

  it('aborts a multipart upload as S3 does: its parts gone, then NoSuchUpload; an id that is no upload is NoSuchUpload', async () => {
    const key = { Bucket, Key: 'e/aborted.bin' };
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand(key));
    await s3.send(new UploadPartCommand({ ...key, UploadId, PartNumber: 1, Body: randomBytes(1024) }));
    const uploads = join(dir, Bucket, '._S3rver_uploads');
    expect(readdirSync(uploads)).toContain(UploadId);
    await s3.send(new AbortMultipartUploadCommand({ ...key, UploadId }));
    expect(readdirSync(uploads)).not.toContain(UploadId);
    const noSuchUpload = { name: 'NoSuchUpload', $metadata: { httpStatusCode: 404 } };
    await expect(
      s3.send(new UploadPartCommand({ ...key, UploadId, PartNumber: 2, Body: randomBytes(8) })),
    ).rejects.toMatchObject(noSuchUpload);
    await expect(s3.send(new AbortMultipartUploadCommand({ ...key, UploadId }))).rejects.toMatchObject(
      noSuchUpload,
    );
    // Never a path: an id this store could not have given names no upload.
    await expect(
      s3.send(new AbortMultipartUploadCommand({ ...key, UploadId: '../../store-test' })),
    ).rejects.toMatchObject(noSuchUpload);
    expect(readdirSync(dir)).toContain(Bucket);
  });

  it('copies a part from a byte range of an object (UploadPartCopy), pinned to its ETag when asked', async () => {
    const body = randomBytes(64 * 1024);
    await s3.send(new PutObjectCommand({ Bucket, Key: 'f/src.bin', Body: body }));
    const key = { Bucket, Key: 'f/copy.bin' };
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand(key));
    const part = (PartNumber: number, range: string, ifMatch?: string) =>
      s3.send(
        new UploadPartCopyCommand({
          ...key,
          UploadId,
          PartNumber,
          CopySource: `${Bucket}/f/src.bin`,
          CopySourceRange: range,
          ...(ifMatch ? { CopySourceIfMatch: ifMatch } : {}),
        }),
      );
    const copied = await part(1, 'bytes=1000-1999', md5(body));
    expect(copied.CopyPartResult?.ETag).toBe(md5(body.subarray(1000, 2000)));
    await expect(part(2, 'bytes=0-9', md5(Buffer.from('other')))).rejects.toMatchObject({
      name: 'PreconditionFailed',
      $metadata: { httpStatusCode: 412 },
    });
    await expect(part(2, `bytes=0-${body.length}`)).rejects.toMatchObject({
      name: 'InvalidArgument',
      $metadata: { httpStatusCode: 400 },
    });
    await s3.send(new AbortMultipartUploadCommand({ ...key, UploadId }));
  });
});

describe("the S3 stand-in's store: a bucket's CORS configuration, kept in memory once read", () => {
  /** The origin the stand-in allows to read an object, as a browser's GET from `origin` sees it. */
  const allowedOrigin = async (origin: string) => {
    const get = new GetObjectCommand({ Bucket, Key: 'cors/tile.png' });
    let allowed: string | undefined;
    get.middlewareStack.add(
      (next) => async (args) => {
        (args.request as { headers: Record<string, string> }).headers.origin = origin;
        const result = await next(args);
        const headers = (result.response as { headers: Record<string, string> }).headers;
        allowed = headers['access-control-allow-origin'];
        return result;
      },
      { step: 'build' },
    );
    const { Body } = await s3.send(get);
    await Body?.transformToByteArray();
    return allowed ?? 'none';
  };
  const allow = (origin: string) =>
    s3.send(
      new PutBucketCorsCommand({
        Bucket,
        CORSConfiguration: { CORSRules: [{ AllowedOrigins: [origin], AllowedMethods: ['GET'] }] },
      }),
    );

  it('answers each configuration as soon as it is written, replaced or removed', async () => {
    await s3.send(new PutObjectCommand({ Bucket, Key: 'cors/tile.png', Body: 'png' }));
    // Read (none) and kept before the first write.
    expect(await allowedOrigin('https://a.example')).toBe('none');
    await allow('https://a.example');
    expect(await allowedOrigin('https://a.example')).toBe('https://a.example');
    await allow('https://b.example');
    expect(await allowedOrigin('https://a.example')).toBe('none');
    expect(await allowedOrigin('https://b.example')).toBe('https://b.example');
    await s3.send(new DeleteBucketCorsCommand({ Bucket }));
    expect(await allowedOrigin('https://b.example')).toBe('none');
  });
});
