/**
 * The base of every geohub error. Each subclass declares its name as a literal
 * (`override readonly name = 'FooError'`): the name survives bundling and minifying, and it is
 * the contract with the state machine's Retry and Catch, which match on it (docs/architecture.md,
 * "Errors"). `cause` is kept, so a wrapped AWS or tool failure stays visible in logs.
 */
export abstract class GeohubError extends Error {
  abstract override readonly name: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
