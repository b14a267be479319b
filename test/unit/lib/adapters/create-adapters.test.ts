import { DeleteMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAdapters } from '../../../../lib/adapters/create-adapters.js';
import { loadConfig } from '../../../../lib/config/config.js';
import { ConfigError } from '../../../../lib/config/errors.js';
import { QueueError } from '../../../../lib/queue/errors.js';

const env = {
  GEOHUB_BUCKET: 'geohub-data',
  GEOHUB_TABLE: 'geohub-ledger',
  GEOHUB_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/work',
  GEOHUB_DLQ_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/dlq',
};
const message = { id: 'm1', body: '{"v":1}', receiptHandle: 'h1', receiveCount: 5, attributes: {} };
const sqs = mockClient(SQSClient);
afterEach(() => sqs.reset());

describe('createAdapters', () => {
  it('the work queue dead-letters to the configured DLQ; the DLQ has no dead-letter queue of its own', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'x' }).on(DeleteMessageCommand).resolves({});
    const adapters = createAdapters(loadConfig(env));
    await adapters.queue.deadLetter(message, 'poison');
    const sent = sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input.QueueUrl);
    expect(sent).toEqual([env.GEOHUB_DLQ_URL]);

    sqs.resetHistory();
    const error = await adapters.deadLetters.deadLetter(message, 'poison').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueError);
    expect((error as Error).message).toBe(`${env.GEOHUB_DLQ_URL} has no dead-letter queue to send to`);
    // Nothing was sent and nothing deleted: the message stays where it is.
    expect(sqs.calls()).toHaveLength(0);
    adapters.destroy();
  });

  it('starter() needs a state machine ARN, and is built once', () => {
    const without = createAdapters(loadConfig(env));
    expect(() => without.starter()).toThrow(ConfigError);
    const arn = 'arn:aws:states:eu-west-1:123456789012:stateMachine:geohub';
    const withArn = createAdapters(loadConfig({ ...env, GEOHUB_STATE_MACHINE_ARN: arn }));
    expect(withArn.starter()).toBe(withArn.starter());
    expect(withArn.starter().arnFor('r1')).toBe('arn:aws:states:eu-west-1:123456789012:execution:geohub:r1');
    without.destroy();
    withArn.destroy();
  });

  it('clients passed in are shared, and closed by their owner only', () => {
    const owner = createAdapters(loadConfig(env));
    const close = vi.spyOn(owner.clients, 'destroy');
    const borrower = createAdapters(loadConfig(env), { clients: owner.clients });
    expect(borrower.clients).toBe(owner.clients);
    borrower.destroy();
    expect(close).not.toHaveBeenCalled();
    owner.destroy();
    expect(close).toHaveBeenCalledOnce();
  });
});
