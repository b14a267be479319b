import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ListQueuesCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { answersAsDynamoDb } from '../../../local/stack/service-probe.js';
import { stackClients } from '../../support/stack-clients.js';

const { config, clients } = stackClients();
afterAll(() => clients.destroy());
const keyId = config.localCredentials!.accessKeyId;

describe('readiness knows which service answered (issue 20 #10)', () => {
  it('only DynamoDB Local passes for DynamoDB: not the S3 or SQS stand-in, not any HTTP server', async () => {
    const any = createServer((_req, res) => res.writeHead(200).end('{}'));
    await new Promise<void>((r) => any.listen(0, '127.0.0.1', r));
    try {
      expect(await answersAsDynamoDb(config.endpoints.dynamodb!, keyId)).toBe(true);
      expect(await answersAsDynamoDb(config.endpoints.sqs!, keyId)).toBe(false);
      expect(await answersAsDynamoDb(config.endpoints.s3!, keyId)).toBe(false);
      expect(await answersAsDynamoDb(`http://127.0.0.1:${(any.address() as AddressInfo).port}/`, keyId)).toBe(
        false,
      );
    } finally {
      any.close();
    }
  });
});

describe('the S3 and SQS stand-ins answer only this start’s credentials (issue 20 #1)', () => {
  const signed = (key: string) => ({
    authorization: `AWS4-HMAC-SHA256 Credential=${key}/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00`,
  });

  it('s3rver refuses anonymous requests and its built-in key', async () => {
    const listing = `${config.endpoints.s3}/${config.bucket}?list-type=2`;
    expect((await fetch(listing)).status).toBe(403);
    expect((await fetch(listing, { headers: signed('S3RVER') })).status).toBe(403);
    // The stack's own clients, with the per-start key, are served.
    const listed = await clients.s3.send(new ListObjectsV2Command({ Bucket: config.bucket, MaxKeys: 1 }));
    expect(listed.$metadata.httpStatusCode).toBe(200);
  });

  it('the SQS emulator refuses requests without the key', async () => {
    const body = 'Action=ListQueues&Version=2012-11-05';
    const post = (headers: Record<string, string>) =>
      fetch(`${config.endpoints.sqs}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    expect((await post({})).status).toBe(403);
    expect((await post(signed('S3RVER'))).status).toBe(403);
    const queues = await clients.sqs.send(new ListQueuesCommand({}));
    expect(queues.QueueUrls).toContain(config.queueUrl);
  });
});
