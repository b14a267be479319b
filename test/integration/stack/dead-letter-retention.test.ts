import { randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { stackClients } from '../../support/stack-clients.js';
import { waitUntil } from '../../support/wait-until.js';

const { clients } = stackClients();
const sqs = clients.sqs;

async function queue(
  name: string,
  attributes: Record<string, string>,
): Promise<{ url: string; arn: string }> {
  const url = (await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl!;
  onTestFinished(async () => {
    await sqs.send(new DeleteQueueCommand({ QueueUrl: url }));
  });
  const got = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  return { url, arn: got.Attributes!.QueueArn! };
}

const messagesIn = async (url: string) => {
  const a = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return (
    Number(a.Attributes?.ApproximateNumberOfMessages) +
    Number(a.Attributes?.ApproximateNumberOfMessagesNotVisible)
  );
};

describe('the SQS stand-in keeps a dead letter by its first enqueue, as SQS does', () => {
  it('a letter moved to the DLQ expires at its first enqueue plus the DLQ retention, not after a fresh one', async () => {
    const id = randomUUID().slice(0, 8);
    // The shortest retention SQS allows (60 s) on the DLQ; the letter waits 40 s in its queue.
    const dlq = await queue(`retention-dlq-${id}`, { MessageRetentionPeriod: '60' });
    const source = await queue(`retention-src-${id}`, {
      MessageRetentionPeriod: '600',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 1 }),
    });
    const enqueued = Date.now();
    await sqs.send(new SendMessageCommand({ QueueUrl: source.url, MessageBody: 'letter' }));
    const received = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: source.url, WaitTimeSeconds: 0, VisibilityTimeout: 40 }),
    );
    expect(received.Messages?.map((m) => m.Body)).toEqual(['letter']);
    // Its one receive used up: when its visibility ends (40 s), it moves to the DLQ.
    expect(await waitUntil(async () => (await messagesIn(dlq.url)) === 1, 70_000, 250)).toBe(true);
    const movedAt = Date.now() - enqueued;
    const seen = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlq.url,
        WaitTimeSeconds: 1,
        VisibilityTimeout: 0,
        AttributeNames: ['All'],
      }),
    );
    // The letter keeps the time it was first sent.
    expect(Number(seen.Messages?.[0]?.Attributes?.SentTimestamp)).toBeLessThanOrEqual(enqueued + 1_000);

    // Gone at 60 s after its first enqueue (about 20 s after the move), long before the 60 s a
    // fresh retention would give it from the move.
    expect(await waitUntil(async () => (await messagesIn(dlq.url)) === 0, 60_000, 250)).toBe(true);
    const goneAfterMove = Date.now() - enqueued - movedAt;
    console.info(`moved to the DLQ after ${movedAt} ms, expired there ${goneAfterMove} ms later`);
    expect(Date.now() - enqueued).toBeLessThan(movedAt + 55_000);
    expect(Date.now() - enqueued).toBeGreaterThanOrEqual(59_000);
  }, 180_000);
});
