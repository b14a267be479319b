import type { RequestOptions } from '../store/object-store.js';

export interface ReceivedMessage {
  readonly id: string;
  readonly body: string;
  readonly receiptHandle: string;
  /** How many times SQS has delivered this message (1 on first delivery). */
  readonly receiveCount: number;
  /** String message attributes (a dead letter's `reason`). */
  readonly attributes?: Readonly<Record<string, string>>;
}

export interface SendResult {
  readonly sent: number;
  /** Entries that still failed after the retries, by index into the input. */
  readonly failed: readonly { index: number; reason: string }[];
}

/**
 * The work queue (SQS). Domain code depends on this interface; only the adapter imports the SDK.
 */
export interface WorkQueue {
  /** Long-polls for up to `max` messages, hidden from others for `visibilitySeconds`. */
  receive(
    max: number,
    waitSeconds: number,
    visibilitySeconds: number,
    options?: RequestOptions,
  ): Promise<ReceivedMessage[]>;
  /** Sets the message's visibility timeout from now (the heartbeat; 0 returns it at once). */
  setVisibility(message: ReceivedMessage, seconds: number, options?: RequestOptions): Promise<void>;
  delete(message: ReceivedMessage, options?: RequestOptions): Promise<void>;
  /** Deletes messages ten per request; throws if any entry failed (those messages come back). */
  deleteBatch(messages: readonly ReceivedMessage[], options?: RequestOptions): Promise<void>;
  /** Sends bodies in batches of ten, retrying entries that fail; reports what still failed. */
  sendBatch(bodies: readonly string[], options?: RequestOptions): Promise<SendResult>;
  /**
   * Puts the message back as a fresh copy and deletes the original, so that an interruption
   * does not consume the message's receive budget (maxReceiveCount is for failures only);
   * `delaySeconds` (at most 900, SQS's limit) keeps the copy invisible that long.
   */
  requeue(
    message: ReceivedMessage,
    options?: RequestOptions & { readonly delaySeconds?: number },
  ): Promise<void>;
  /** Moves an unprocessable message to the dead-letter queue with a reason. */
  deadLetter(message: ReceivedMessage, reason: string, options?: RequestOptions): Promise<void>;
  /** Approximate visible and in-flight counts. */
  depth(options?: RequestOptions): Promise<{ visible: number; inFlight: number }>;
}
