import { randomBytes, randomUUID } from 'node:crypto';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { stackClients } from '../../support/stack-clients.js';

const { config, clients } = stackClients();
const s3 = clients.s3;
afterAll(() => clients.destroy());

describe('s3rver behaves as S3 does', () => {
  it('stores an object byte for byte, heads it and serves a ranged read', async () => {
    const body = randomBytes(100_000);
    const key = `test/${randomUUID()}/object.bin`;
    const put = await s3.send(new PutObjectCommand({ Bucket: config.bucket, Key: key, Body: body }));
    expect(put.ETag).toBeTruthy();

    const head = await s3.send(new HeadObjectCommand({ Bucket: config.bucket, Key: key }));
    expect(head.ContentLength).toBe(100_000);
    expect(head.ETag).toBe(put.ETag);

    const ranged = await s3.send(
      new GetObjectCommand({ Bucket: config.bucket, Key: key, Range: 'bytes=1000-1999' }),
    );
    const bytes = Buffer.from(await ranged.Body!.transformToByteArray());
    expect(ranged.ContentLength).toBe(1000);
    expect(bytes.equals(body.subarray(1000, 2000))).toBe(true);
  });

  it('lists a prefix across pages with continuation tokens', async () => {
    const prefix = `test/${randomUUID()}/`;
    const keys = Array.from({ length: 7 }, (_, i) => `${prefix}${String(i).padStart(2, '0')}.txt`);
    await Promise.all(
      keys.map((Key) => s3.send(new PutObjectCommand({ Bucket: config.bucket, Key, Body: Key }))),
    );

    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({
          Bucket: config.bucket,
          Prefix: prefix,
          MaxKeys: 3,
          ContinuationToken: token,
        }),
      );
      pages += 1;
      seen.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(keys);
  });
});
