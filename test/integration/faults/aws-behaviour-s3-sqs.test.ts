import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { type AwsError, faultyStack, injectedBy, sendAll } from '../../support/fault-stack.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';

const direct = stackClients();

describe('the AWS-behaviour layer answers S3 and SQS as AWS does, and the SDK treats it as on AWS', () => {
  it('passes S3 traffic through intact, and answers 503 SlowDown that the SDK retries', async () => {
    const clean = await faultyStack({});
    const key = `test/${randomUUID()}.bin`;
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    await clean.clients.s3.send(new PutObjectCommand({ Bucket: clean.config.bucket, Key: key, Body: bytes }));
    const got = await clean.clients.s3.send(new GetObjectCommand({ Bucket: clean.config.bucket, Key: key }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(bytes)).toBe(true);

    const { clients, config, behaviour } = await faultyStack({ GEOHUB_FAULT_S3_503: '1' });
    const other = `test/${randomUUID()}.bin`;
    const error = (await clients.s3
      .send(new PutObjectCommand({ Bucket: config.bucket, Key: other, Body: bytes }))
      .catch((e: unknown) => e)) as AwsError;
    expect(error.name).toBe('SlowDown');
    expect(error.$metadata?.httpStatusCode).toBe(503);
    expect(error.$metadata?.attempts).toBe(config.maxAttempts);
    expect(behaviour.counts().injected.s3).toEqual({ SlowDown: config.maxAttempts });
    // Nothing was stored by the refused requests.
    const missing = await direct.clients.s3
      .send(new GetObjectCommand({ Bucket: config.bucket, Key: other }))
      .catch((e: Error) => e.name);
    expect(missing).toBe('NoSuchKey');
  });

  it('a file upload is retried by the SDK on SlowDown like any other request (its body is re-sent)', async () => {
    const { store, config, behaviour } = await faultyStack({ GEOHUB_FAULT_S3_503: '1' });
    const file = join(tempDir('geohub-upload-'), 'tile.tif');
    writeFileSync(file, Buffer.alloc(50_000, 7));
    const error = (await store
      .putFile(`test/${randomUUID()}.tif`, file)
      .catch((e: unknown) => e)) as AwsError;
    expect(error.name).toBe('SlowDown');
    expect(error.$metadata?.attempts).toBe(config.maxAttempts);
    expect(behaviour.counts().injected.s3).toEqual({ SlowDown: config.maxAttempts });
  });

  it('answers SQS with 500s that the SDK retries, and loses nothing it refused', async () => {
    const { clients, config, behaviour } = await faultyStack({ GEOHUB_FAULT_SQS_500: '1' });
    const error = (await clients.sqs
      .send(new SendMessageCommand({ QueueUrl: config.deadLetterQueueUrl, MessageBody: 'never sent' }))
      .catch((e: unknown) => e)) as AwsError;
    expect(error.$metadata?.httpStatusCode).toBe(500);
    expect(error.$metadata?.attempts).toBe(config.maxAttempts);
    expect(behaviour.counts().injected.sqs).toEqual({ InternalFailure: config.maxAttempts });
    const seen = await direct.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: config.deadLetterQueueUrl,
        WaitTimeSeconds: 0,
        MaxNumberOfMessages: 10,
      }),
    );
    expect((seen.Messages ?? []).map((m) => m.Body)).not.toContain('never sent');
  });
  it('answers S3 with 500 InternalError that the SDK retries: uploads recover, the counts add up', async () => {
    const bytes = Buffer.alloc(20_000, 3);
    const all = await faultyStack({ GEOHUB_FAULT_S3_500: '1' });
    const refused = `test/${randomUUID()}.bin`;
    const error = (await all.clients.s3
      .send(new PutObjectCommand({ Bucket: all.config.bucket, Key: refused, Body: bytes }))
      .catch((e: unknown) => e)) as AwsError;
    expect([error.name, error.$metadata?.httpStatusCode]).toEqual(['InternalError', 500]);
    expect(error.$metadata?.attempts).toBe(all.config.maxAttempts);
    expect(all.behaviour.counts().injected.s3).toEqual({ InternalError: all.config.maxAttempts });

    const { clients, config, behaviour } = await faultyStack({
      GEOHUB_FAULT_S3_500: '0.4',
      GEOHUB_FAULT_SEED: '500',
    });
    const keys = Array.from({ length: 12 }, () => `test/${randomUUID()}.bin`);
    const seen = await sendAll(keys.length, (i) =>
      clients.s3.send(new PutObjectCommand({ Bucket: config.bucket, Key: keys[i], Body: bytes })),
    );
    expect(seen.some((r) => r.ok && r.attempts > 1)).toBe(true);
    expect(behaviour.counts().injected.s3).toEqual({ InternalError: injectedBy(seen) });
    // What succeeded is stored whole; what was refused is not there at all.
    const stored = (key: string) =>
      direct.clients.s3.send(new GetObjectCommand({ Bucket: config.bucket, Key: key })).then(
        async (o) => Buffer.from(await o.Body!.transformToByteArray()).equals(bytes),
        (e: Error) => e.name,
      );
    expect(await stored(refused)).toBe('NoSuchKey');
    for (const [i, key] of keys.entries()) {
      expect(await stored(key), `object ${i}`).toBe(seen[i]!.ok ? true : 'NoSuchKey');
    }
  });
});
