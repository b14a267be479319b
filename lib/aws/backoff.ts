export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `op` again after failures `transient` accepts, with full-jitter back-off under a doubling
 * ceiling, bounded by the policy's attempts; others pass through at once. Once the attempts are
 * used up, throws what `exhausted` makes of the last failure.
 */
export async function retryWithBackoff<T>(
  op: () => Promise<T>,
  policy: RetryPolicy,
  transient: (error: unknown) => boolean,
  exhausted: (error: unknown, attempts: number) => Error,
): Promise<T> {
  const sleep = policy.sleep ?? defaultSleep;
  const random = policy.random ?? Math.random;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await op();
    } catch (error) {
      if (!transient(error)) throw error;
      if (attempt >= policy.attempts) throw exhausted(error, attempt);
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.floor(random() * ceiling));
    }
  }
}
