import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../../lib/aws/clients.js';
import { copyObject } from '../../../lib/store/s3-copy.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';

const { config, clients, store } = stackClients();
afterAll(() => clients.destroy());
const MiB = 1024 * 1024;
// A copy past 5 MiB goes in parts of 5 MiB (S3's smallest part): the multipart path of a
// source over 5 GiB, on objects this machine can hold.
const SMALL = { maxCopyBytes: 5 * MiB, partBytes: 5 * MiB };

type Step = (
  next: (args: unknown) => Promise<unknown>,
  context: { commandName?: string },
) => (args: unknown) => Promise<unknown>;

/** An S3 client of its own whose every answered command is told to `seen` (the upload's id too). */
function watched(seen: (command: string, output: Record<string, unknown>) => Promise<void> | void): S3Client {
  const own = createAwsClients(config);
  const step: Step = (next, context) => async (args) => {
    const r = (await next(args)) as { output: Record<string, unknown> };
    await seen(context.commandName ?? '', r.output);
    return r;
  };
  (own.s3.middlewareStack as unknown as { add(m: Step, o: object): void }).add(step, { step: 'initialize' });
  afterAll(() => own.destroy());
  return own.s3;
}

async function put(key: string, body: Buffer) {
  await clients.s3.send(new PutObjectCommand({ Bucket: config.bucket, Key: key, Body: body }));
}

async function read(key: string): Promise<Buffer> {
  const file = join(tempDir('geohub-copy-'), 'object');
  await store.download(key, file);
  return readFileSync(file);
}

describe('a server-side copy past 5 GiB is a multipart copy', () => {
  it('copies the object whole in parts of the given size, as one multipart object', async () => {
    const bytes = randomBytes(12 * MiB + 17);
    const from = `survey/copy-${Date.now()}/big.tif`;
    await put(from, bytes);
    const commands: string[] = [];
    const s3 = watched((c) => void commands.push(c));
    const to = { bucket: config.bucket, key: `incoming/copy-${Date.now()}/big.tif` };
    const head = await copyObject(s3, { bucket: config.bucket, key: from }, to, SMALL);
    expect(head.bytes).toBe(bytes.length);
    // A multipart object's ETag: the MD5 of its parts' MD5s, and their count.
    expect(head.etag).toMatch(/-3"?$/);
    expect(commands.filter((c) => c === 'UploadPartCopyCommand')).toHaveLength(3);
    expect(commands).not.toContain('CopyObjectCommand');
    expect((await read(to.key)).equals(bytes)).toBe(true);
  });

  it('keeps a one-request copy up to the limit', async () => {
    const bytes = randomBytes(5 * MiB);
    const from = `survey/copy-${Date.now()}/at-limit.tif`;
    await put(from, bytes);
    const commands: string[] = [];
    const s3 = watched((c) => void commands.push(c));
    const to = { bucket: config.bucket, key: `incoming/copy-${Date.now()}/at-limit.tif` };
    await copyObject(s3, { bucket: config.bucket, key: from }, to, SMALL);
    expect(commands).toEqual(['HeadObjectCommand', 'CopyObjectCommand']);
    expect((await read(to.key)).equals(bytes)).toBe(true);
  });

  it('fails when the source is overwritten during the copy, never mixing two objects, and aborts its upload', async () => {
    const before = randomBytes(12 * MiB);
    const from = `survey/copy-${Date.now()}/moving.tif`;
    await put(from, before);
    let uploadId = '';
    let parts = 0;
    // One part at a time; the source is overwritten as soon as the first part is copied.
    const s3 = watched(async (command, output) => {
      if (command === 'CreateMultipartUploadCommand') uploadId = String(output.UploadId);
      if (command === 'UploadPartCopyCommand' && ++parts === 1) await put(from, randomBytes(12 * MiB));
    });
    const key = `incoming/copy-${Date.now()}/moving.tif`;
    const copy = copyObject(
      s3,
      { bucket: config.bucket, key: from },
      { bucket: config.bucket, key },
      {
        ...SMALL,
        concurrency: 1,
      },
    );
    await expect(copy).rejects.toMatchObject({ name: 'PreconditionFailed' });
    expect(parts).toBe(1);
    expect(await store.head(key)).toBeUndefined();
    // Aborted: the upload is gone, its parts with it (a part or a completion is refused).
    expect(uploadId).toMatch(/^[0-9a-f]{32}$/);
    const upload = { Bucket: config.bucket, Key: key, UploadId: uploadId };
    await expect(
      clients.s3.send(new UploadPartCommand({ ...upload, PartNumber: 2, Body: Buffer.alloc(1) })),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
    await expect(
      clients.s3.send(
        new CompleteMultipartUploadCommand({
          ...upload,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"x"' }] },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
    await expect(clients.s3.send(new AbortMultipartUploadCommand(upload))).rejects.toMatchObject({
      name: 'NoSuchUpload',
    });
  });
});
