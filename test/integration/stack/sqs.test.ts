import { randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { readResources } from '../../../local/stack/resources.js';
import { LOCAL_ACCOUNT, LOCAL_REGION, LOCAL_STAGE } from '../../../local/stack/stack.js';
import { stackClients } from '../../support/stack-clients.js';
import { waitUntil } from '../../support/wait-until.js';

const { clients } = stackClients();
const sqs = clients.sqs;
afterAll(() => clients.destroy());

const work = readResources({
  stage: LOCAL_STAGE,
  accountId: LOCAL_ACCOUNT,
  region: LOCAL_REGION,
}).queues.find((q) => q.redrive)!;
const maxReceiveCount = work.redrive!.maxReceiveCount;

async function arnOf(url: string): Promise<string> {
  const r = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  return r.Attributes!.QueueArn!;
}

/** A private queue pair with the work queue's own redrive settings, so tests do not share messages. */
async function queuePair(): Promise<{ url: string; dlqUrl: string; dlqArn: string }> {
  const id = randomUUID().slice(0, 8);
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `t-${id}-dlq` }));
  const dlqArn = await arnOf(dlq.QueueUrl!);
  const main = await sqs.send(
    new CreateQueueCommand({
      QueueName: `t-${id}-work`,
      Attributes: {
        ...work.attributes,
        ReceiveMessageWaitTimeSeconds: '0',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }),
      },
    }),
  );
  return { url: main.QueueUrl!, dlqUrl: dlq.QueueUrl!, dlqArn };
}

async function receive(url: string, visibility: number, max = 10) {
  const r = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: max,
      VisibilityTimeout: visibility,
      WaitTimeSeconds: 0,
      // The emulator reads only the legacy AttributeNames; AWS reads MessageSystemAttributeNames.
      AttributeNames: ['All'],
      MessageSystemAttributeNames: ['ApproximateReceiveCount'],
    }),
  );
  return r.Messages ?? [];
}

describe('the SQS emulator behaves as SQS does', () => {
  it('sends a batch of ten, hides received messages for the visibility timeout, then shows them again', async () => {
    const { url } = await queuePair();
    const sent = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: Array.from({ length: 10 }, (_, i) => ({ Id: `m${i}`, MessageBody: JSON.stringify({ i }) })),
      }),
    );
    expect(sent.Successful).toHaveLength(10);
    expect(sent.Failed ?? []).toHaveLength(0);

    // Hidden for 6 s; then polled until all ten are back, however long a loaded machine takes:
    // only the lower bound (not before the visibility timeout) is a property of the queue.
    const receivedAt = Date.now();
    const first = await receive(url, 6);
    expect(first).toHaveLength(10);
    expect(await receive(url, 6)).toHaveLength(0);
    const again: Awaited<ReturnType<typeof receive>> = [];
    let backAt = 0;
    expect(
      await waitUntil(async () => {
        again.push(...(await receive(url, 30)));
        backAt = Date.now();
        return again.length >= 10;
      }, 60_000),
    ).toBe(true);
    expect(backAt - receivedAt).toBeGreaterThanOrEqual(6_000);
    expect(again).toHaveLength(10);
    expect(again.every((m) => m.Attributes?.ApproximateReceiveCount === '2')).toBe(true);
  });

  it('extends visibility for heartbeats without counting them as receives (patched emulator, as SQS does)', async () => {
    const { url, dlqUrl } = await queuePair();
    await sqs.send(
      new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: 'long', MessageBody: 'long' }] }),
    );
    const [message] = await receive(url, 1, 1);
    for (let beat = 0; beat < maxReceiveCount + 1; beat += 1) {
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: url,
          ReceiptHandle: message!.ReceiptHandle!,
          VisibilityTimeout: 30,
        }),
      );
    }
    // Past the receive's own 1 s (a lower bound: a loaded machine only waits longer), well inside
    // the heartbeats' 30 s: still hidden, so the heartbeats extended it.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await receive(url, 30)).toHaveLength(0);
    // Given back at once, not after a timeout the test would have to outwait.
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: url,
        ReceiptHandle: message!.ReceiptHandle!,
        VisibilityTimeout: 0,
      }),
    );
    const [again] = await receive(url, 30, 1);
    expect(again?.Attributes?.ApproximateReceiveCount).toBe('2');
    expect(await receive(dlqUrl, 0)).toHaveLength(0);
  });

  it(`moves a message to the DLQ after maxReceiveCount (${maxReceiveCount}) receives, and StartMessageMoveTask brings it back`, async () => {
    const { url, dlqUrl, dlqArn } = await queuePair();
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: [{ Id: 'poison', MessageBody: '{"poison":true}' }],
      }),
    );
    for (let attempt = 1; attempt <= maxReceiveCount; attempt += 1) {
      const [message] = await receive(url, 30, 1);
      expect(message?.Attributes?.ApproximateReceiveCount).toBe(String(attempt));
      // Give it straight back, as a failing worker would.
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: url,
          ReceiptHandle: message!.ReceiptHandle!,
          VisibilityTimeout: 0,
        }),
      );
    }
    expect(await receive(url, 30)).toHaveLength(0);
    const [dead] = await receive(dlqUrl, 0, 1);
    expect(dead?.Body).toBe('{"poison":true}');

    const task = await sqs.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn }));
    expect(task.TaskHandle).toBeTruthy();
    let back: Awaited<ReturnType<typeof receive>> = [];
    for (let i = 0; i < 50 && back.length === 0; i += 1) {
      back = await receive(url, 30, 1);
      if (back.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(back[0]?.Body).toBe('{"poison":true}');
    expect(await receive(dlqUrl, 0)).toHaveLength(0);
  });
});
