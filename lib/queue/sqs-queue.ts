import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { abortOf } from '../aws/abort-of.js';
import { QueueError } from './errors.js';
import type { SendResult, WorkQueue } from './work-queue.js';

const BATCH = 10;
const SEND_ATTEMPTS = 5;

export interface SqsQueueOptions {
  /**
   * Where deadLetter() sends a message. A dead-letter queue itself has none: the messages it
   * holds go back to the work queue (redrive), never further.
   */
  readonly deadLetterQueueUrl?: string;
  readonly sleep?: (ms: number) => Promise<void>;
  /** The client's bound on one request (config.requestTimeoutMs); a long poll gets its wait on top. */
  readonly requestTimeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** The WorkQueue on SQS (or the local SQS emulator, through the client's endpoint). */
export function createSqsQueue(sqs: SQSClient, queueUrl: string, options: SqsQueueOptions = {}): WorkQueue {
  const { deadLetterQueueUrl } = options;
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  const queue: WorkQueue = {
    async receive(max, waitSeconds, visibilitySeconds, requestOptions) {
      const r = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: Math.min(Math.max(max, 1), BATCH),
          WaitTimeSeconds: waitSeconds,
          VisibilityTimeout: visibilitySeconds,
          // The emulator reads only the legacy AttributeNames; AWS reads MessageSystemAttributeNames.
          AttributeNames: ['All'],
          MessageSystemAttributeNames: ['ApproximateReceiveCount'],
          MessageAttributeNames: ['All'],
        }),
        // The request timeout runs until the response headers arrive, and a long poll sends
        // them only when its wait is over: the bound is the wait plus the usual timeout.
        { ...abortOf(requestOptions), requestTimeout: waitSeconds * 1000 + requestTimeoutMs },
      );
      return (r.Messages ?? []).map((m) => ({
        id: m.MessageId ?? '',
        body: m.Body ?? '',
        receiptHandle: m.ReceiptHandle ?? '',
        receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 1),
        attributes: Object.fromEntries(
          Object.entries(m.MessageAttributes ?? {}).flatMap(([k, v]) =>
            v.StringValue ? [[k, v.StringValue]] : [],
          ),
        ),
      }));
    },

    async setVisibility(message, seconds, requestOptions) {
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrl,
          ReceiptHandle: message.receiptHandle,
          VisibilityTimeout: seconds,
        }),
        abortOf(requestOptions),
      );
    },

    async delete(message, requestOptions) {
      await sqs.send(
        new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.receiptHandle }),
        abortOf(requestOptions),
      );
    },

    async deleteBatch(messages, requestOptions) {
      for (let i = 0; i < messages.length; i += BATCH) {
        const r = await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: messages
              .slice(i, i + BATCH)
              .map((m, j) => ({ Id: String(j), ReceiptHandle: m.receiptHandle })),
          }),
          abortOf(requestOptions),
        );
        if ((r.Failed ?? []).length > 0)
          throw new QueueError(
            `could not delete ${r.Failed!.length} messages: ${r.Failed![0]?.Message ?? r.Failed![0]?.Code}`,
          );
      }
    },

    async sendBatch(bodies, requestOptions): Promise<SendResult> {
      let sent = 0;
      const failed: { index: number; reason: string }[] = [];
      for (let start = 0; start < bodies.length; start += BATCH) {
        let pending = bodies.slice(start, start + BATCH).map((body, i) => ({ index: start + i, body }));
        for (let attempt = 1; pending.length > 0; attempt += 1) {
          const r = await sqs.send(
            new SendMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: pending.map((p) => ({ Id: String(p.index), MessageBody: p.body })),
            }),
            abortOf(requestOptions),
          );
          sent += r.Successful?.length ?? 0;
          const retry = new Set((r.Failed ?? []).filter((f) => !f.SenderFault).map((f) => f.Id));
          for (const f of r.Failed ?? []) {
            if (f.SenderFault || attempt === SEND_ATTEMPTS) {
              failed.push({ index: Number(f.Id), reason: `${f.Code}: ${f.Message ?? ''}` });
            }
          }
          if (attempt === SEND_ATTEMPTS) break;
          pending = pending.filter((p) => retry.has(String(p.index)));
          if (pending.length > 0) await sleep(2 ** attempt * 50);
        }
      }
      return { sent, failed };
    },

    async requeue(message, requestOptions) {
      // Send first, then delete: a crash in between duplicates the message (harmless, markers
      // make it idempotent) instead of losing it.
      const delay = Math.min(900, Math.max(0, Math.ceil(requestOptions?.delaySeconds ?? 0)));
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: message.body,
          ...(delay > 0 ? { DelaySeconds: delay } : {}),
        }),
        abortOf(requestOptions),
      );
      await queue.delete(message, requestOptions);
    },

    async deadLetter(message, reason, requestOptions) {
      if (!deadLetterQueueUrl) throw new QueueError(`${queueUrl} has no dead-letter queue to send to`);
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: deadLetterQueueUrl,
          MessageBody: message.body,
          MessageAttributes: { reason: { DataType: 'String', StringValue: reason.slice(0, 1000) } },
        }),
        abortOf(requestOptions),
      );
      await queue.delete(message, requestOptions);
    },

    async depth(requestOptions) {
      const r = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
        abortOf(requestOptions),
      );
      return {
        visible: Number(r.Attributes?.ApproximateNumberOfMessages ?? 0),
        inFlight: Number(r.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0),
      };
    },
  };
  return queue;
}
