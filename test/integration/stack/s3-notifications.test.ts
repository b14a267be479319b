import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../../lib/aws/clients.js';
import { uploadFileMultipart } from '../../../lib/store/s3-multipart-upload.js';
import { type LocalStack, startLocalStack } from '../../../local/stack/stack.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

interface Seen {
  readonly eventName: string;
  readonly key: string;
}

let stack: LocalStack;
let clients: ReturnType<typeof createAwsClients>;
const seen: Seen[] = [];

beforeAll(async () => {
  stack = await startLocalStack();
  clients = createAwsClients(stack.config);
  stack.onS3Event((record) => {
    const r = record as { eventName: string; s3: { object: { key: string } } };
    seen.push({ eventName: r.eventName, key: r.s3.object.key });
  });
});
afterAll(async () => {
  clients?.destroy();
  await stack?.stop();
});

describe("the S3 stand-in sends the events the bucket's notification configuration names, as S3 does", () => {
  it("announces uploads under incoming/ and nothing else: a run's tiles, other keys and deletes send none", async () => {
    const bucket = stack.config.bucket;
    const put = (Key: string) => clients.s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'x' }));
    // Events leave the stand-in in the order of the writes: once the last one has arrived, any
    // event of the writes before it would have arrived too.
    await put('runs/r-1/tiles/12/3/4.tif');
    await put('incoming/first.tif');
    await put('collections/c/member.tif');
    await clients.s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'incoming/first.tif' }));
    const file = `${tempDir('geohub-notify-')}/big.bin`;
    writeFileSync(file, randomBytes(64 * 1024));
    await uploadFileMultipart(clients.s3, bucket, 'incoming/in parts.tif', file);
    await put('runs/r-1/tiles/12/3/5.tif');
    await put('incoming/last.tif');
    expect(await waitUntil(() => seen.some((s) => s.key === 'incoming/last.tif'), 30_000)).toBe(true);
    expect(seen).toEqual([
      { eventName: 'ObjectCreated:Put', key: 'incoming/first.tif' },
      // S3's name for a completed multipart upload, its key URL-encoded as S3 sends it.
      { eventName: 'ObjectCreated:CompleteMultipartUpload', key: 'incoming/in+parts.tif' },
      { eventName: 'ObjectCreated:Put', key: 'incoming/last.tif' },
    ]);
  });
});
