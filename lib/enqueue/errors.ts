/** Some messages could not be sent even after the queue adapter's retries. */
export class EnqueueSendError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EnqueueSendError';
  }
}

/** The enqueue event is not the shape the state machine sends (bad manifest reference or cursor). */
export class InvalidEnqueueRequestError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidEnqueueRequestError';
  }
}
