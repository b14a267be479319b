/** An emulator of the local stack did not start, or is not healthy. */
export class StackStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StackStartError';
  }
}

/** serverless.yml does not hold the resources the local stack needs. */
export class ResourceDefinitionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ResourceDefinitionError';
  }
}
