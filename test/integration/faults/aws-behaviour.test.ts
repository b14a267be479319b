import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetItemCommand, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { faultyStack } from '../../support/fault-stack.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

type AwsError = Error & { $metadata?: { httpStatusCode?: number; attempts?: number } };

const direct = stackClients();

describe('the AWS-behaviour layer answers as AWS does, and the SDK treats it as on AWS', () => {
  it('cancels concurrent transactions on one item with TransactionConflict; only the ones that pass are applied', async () => {
    const { clients, config, behaviour } = await faultyStack({});
    const key = { PK: `TEST#${randomUUID()}`, SK: 'META' };
    await clients.documents.send(new PutCommand({ TableName: config.table, Item: { ...key, done: 0 } }));
    const increment = (i: number) =>
      clients.documents.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: config.table, Item: { PK: key.PK, SK: `TILE#${i}`, state: 'DONE' } } },
            {
              Update: {
                TableName: config.table,
                Key: key,
                UpdateExpression: 'ADD done :one',
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ],
        }),
      );
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => increment(i)));
    const passed = results.filter((r) => r.status === 'fulfilled').length;
    const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as AwsError] : []));
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    for (const error of failed) {
      expect(error).toBeInstanceOf(TransactionCanceledException);
      const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
      // The shared counter item is the one in conflict; the tile item is not.
      expect(reasons.map((r) => r.Code)).toEqual(['None', 'TransactionConflict']);
      expect(error.$metadata?.attempts).toBe(1); // the SDK does not retry it; the caller must
    }
    // Exact: a cancelled transaction wrote nothing.
    const { Item } = await direct.clients.documents.send(
      new GetCommand({ TableName: config.table, Key: key }),
    );
    expect(Item?.done).toBe(passed);
    expect(behaviour.counts().injected.dynamodb.TransactionConflict).toBe(failed.length);
  });

  it('injects transaction conflicts at the configured rate, replayably for a seed', async () => {
    const tally = async (seed: string) => {
      const { clients, config } = await faultyStack({
        GEOHUB_FAULT_SEED: seed,
        GEOHUB_FAULT_DYNAMODB_CONFLICT: '0.3',
      });
      const outcomes: string[] = [];
      for (let i = 0; i < 40; i += 1) {
        const item = { PK: `TEST#${randomUUID()}`, SK: 'META', n: i };
        const outcome = await clients.documents
          .send(
            new TransactWriteCommand({ TransactItems: [{ Put: { TableName: config.table, Item: item } }] }),
          )
          .then(
            () => 'ok',
            (e: Error) => e.name,
          );
        outcomes.push(outcome);
      }
      return outcomes;
    };
    const first = await tally('7');
    const conflicts = first.filter((o) => o === 'TransactionCanceledException').length;
    expect(conflicts).toBeGreaterThan(3);
    expect(conflicts).toBeLessThan(25);
    expect(await tally('7')).toEqual(first);
  });

  it('a single-item write that meets a transaction on its item gets TransactionConflictException', async () => {
    // Seed 4 holds the first request (the transaction) in flight for 0.94 × 3 s: the write sent
    // once the proxy has the transaction meets it there.
    const { clients, config, behaviour } = await faultyStack({
      GEOHUB_FAULT_SEED: '4',
      GEOHUB_FAULT_LATENCY_MS: '3000',
    });
    const key = { PK: `TEST#${randomUUID()}`, SK: 'META' };
    const transaction = clients.documents.send(
      new TransactWriteCommand({
        TransactItems: [{ Put: { TableName: config.table, Item: { ...key, by: 't' } } }],
      }),
    );
    expect(await waitUntil(() => behaviour.counts().requests.dynamodb === 1, 2_000, 5)).toBe(true);
    const write = await clients.documents
      .send(
        new UpdateCommand({
          TableName: config.table,
          Key: key,
          UpdateExpression: 'SET #b = :w',
          ExpressionAttributeNames: { '#b': 'by' },
          ExpressionAttributeValues: { ':w': 'w' },
        }),
      )
      .then(
        () => 'ok',
        (e: Error) => e.name,
      );
    expect(write).toBe('TransactionConflictException');
    await transaction;
    const { Item } = await direct.clients.documents.send(
      new GetCommand({ TableName: config.table, Key: key }),
    );
    expect(Item?.by).toBe('t');
  });

  it('throttles as DynamoDB does; the SDK retries throttling itself and gives up after its attempts', async () => {
    const { clients, config, behaviour } = await faultyStack({ GEOHUB_FAULT_DYNAMODB_THROTTLE: '1' });
    const error = (await clients.dynamodb
      .send(new GetItemCommand({ TableName: config.table, Key: { PK: { S: 'x' }, SK: { S: 'y' } } }))
      .catch((e: unknown) => e)) as AwsError;
    expect(['ThrottlingException', 'ProvisionedThroughputExceededException']).toContain(error.name);
    expect(error.$metadata?.attempts).toBe(config.maxAttempts);
    const injected = behaviour.counts().injected.dynamodb;
    expect((injected.ThrottlingException ?? 0) + (injected.ProvisionedThroughputExceededException ?? 0)).toBe(
      config.maxAttempts,
    );
  });

  it('throttles an item written faster than its partition allows', async () => {
    const { clients, config } = await faultyStack(
      { GEOHUB_FAULT_DYNAMODB_KEY_WRITES_PER_S: '5' },
      { GEOHUB_MAX_ATTEMPTS: '1' },
    );
    const key = { PK: `TEST#${randomUUID()}`, SK: 'META' };
    const outcomes: string[] = [];
    for (let i = 0; i < 15; i += 1) {
      outcomes.push(
        await clients.documents.send(new PutCommand({ TableName: config.table, Item: { ...key, i } })).then(
          () => 'ok',
          (e: Error) => e.name,
        ),
      );
    }
    expect(outcomes.filter((o) => o !== 'ok').length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o === 'ok').length).toBeLessThanOrEqual(15);
    expect(new Set(outcomes.filter((o) => o !== 'ok'))).toSatisfy((s: Set<string>) =>
      [...s].every((n) => n === 'ThrottlingException' || n === 'ProvisionedThroughputExceededException'),
    );
  });

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
  /**
   * `count` requests through a layer answering 500 at `rate`: each succeeds after `attempts - 1`
   * injected errors or fails after maxAttempts of them. Returns what each request saw.
   */
  async function sendAll(count: number, send: (i: number) => Promise<{ $metadata: { attempts?: number } }>) {
    const seen: { ok: boolean; attempts: number }[] = [];
    for (let i = 0; i < count; i += 1) {
      await send(i).then(
        (r) => seen.push({ ok: true, attempts: r.$metadata.attempts ?? 1 }),
        (e: AwsError) => seen.push({ ok: false, attempts: e.$metadata?.attempts ?? 0 }),
      );
    }
    return seen;
  }
  /** Every injected 500 is one attempt of a request that was not its last successful one. */
  const injectedBy = (seen: { ok: boolean; attempts: number }[]) =>
    seen.reduce((n, r) => n + r.attempts - (r.ok ? 1 : 0), 0);

  it('answers DynamoDB with 500s that the SDK retries: writes recover, the counts add up, refused ones are absent', async () => {
    const all = await faultyStack({ GEOHUB_FAULT_DYNAMODB_500: '1' });
    const key = { PK: `fault500#${randomUUID()}`, SK: 'x' };
    const error = (await all.clients.documents
      .send(new PutCommand({ TableName: all.config.table, Item: key }))
      .catch((e: unknown) => e)) as AwsError;
    expect([error.name, error.$metadata?.httpStatusCode]).toEqual(['InternalServerError', 500]);
    expect(error.$metadata?.attempts).toBe(all.config.maxAttempts);
    expect(all.behaviour.counts().injected.dynamodb).toEqual({ InternalServerError: all.config.maxAttempts });

    const { clients, config, behaviour } = await faultyStack({
      GEOHUB_FAULT_DYNAMODB_500: '0.4',
      GEOHUB_FAULT_SEED: '500',
    });
    const pk = `fault500#${randomUUID()}`;
    const seen = await sendAll(12, (i) =>
      clients.documents.send(new PutCommand({ TableName: config.table, Item: { PK: pk, SK: `${i}` } })),
    );
    expect(seen.some((r) => r.ok && r.attempts > 1)).toBe(true); // recovered by a retry
    expect(behaviour.counts().injected.dynamodb).toEqual({ InternalServerError: injectedBy(seen) });
    // What succeeded is stored, once; what was refused is not.
    for (const [i, r] of seen.entries()) {
      const { Item } = await direct.clients.documents.send(
        new GetCommand({ TableName: config.table, Key: { PK: pk, SK: `${i}` } }),
      );
      expect(Item !== undefined, `item ${i}`).toBe(r.ok);
    }
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
