/** A queue operation that cannot be done as asked (not an AWS failure: those keep their own names). */
export class QueueError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QueueError';
  }
}
