/** The worker service whose capacity is to be set cannot be found or read. */
export class CapacityTargetError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CapacityTargetError';
  }
}
