import { describe, expect, it } from 'vitest';
import { ExecutionStartThrottledError } from '../../../../lib/executions/errors.js';
import type { ExecutionStarter } from '../../../../lib/executions/execution-starter.js';
import { retryingStarter } from '../../../../lib/executions/retrying-starter.js';

const named = (name: string) => Object.assign(new Error(name), { name });

/** A starter that refuses with `errors` in turn, then starts. */
function refusing(errors: Error[]): ExecutionStarter & { calls: number } {
  const starter = {
    calls: 0,
    arnFor: (name: string) => `arn:aws:states:us-east-1:1:execution:m:${name}`,
    async start(name: string) {
      starter.calls += 1;
      const error = errors.shift();
      if (error) throw error;
      return { executionArn: starter.arnFor(name), started: true };
    },
  };
  return starter;
}

const policy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0.5 };

describe('retryingStarter', () => {
  it('starts a refused execution on a later attempt: ThrottlingException and ExecutionLimitExceeded', async () => {
    const slept: number[] = [];
    const inner = refusing([named('ThrottlingException'), named('ExecutionLimitExceeded')]);
    const starter = retryingStarter(inner, { ...policy, sleep: async (ms) => void slept.push(ms) });
    await expect(starter.start('run-1', {})).resolves.toEqual({
      executionArn: inner.arnFor('run-1'),
      started: true,
    });
    expect(inner.calls).toBe(3);
    expect(slept).toEqual([50, 100]); // full jitter under a doubling ceiling
  });

  it('gives up after its attempts with ExecutionStartThrottledError, the refusal as cause', async () => {
    const refusal = named('ExecutionLimitExceeded');
    const inner = refusing([refusal, refusal, refusal, refusal, refusal]);
    const error = await retryingStarter(inner, { ...policy, sleep: async () => {} })
      .start('run-2', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExecutionStartThrottledError);
    expect((error as Error).cause).toBe(refusal);
    expect(inner.calls).toBe(4);
  });

  it('passes any other error at once', async () => {
    const inner = refusing([named('AccessDeniedException')]);
    await expect(
      retryingStarter(inner, { ...policy, sleep: async () => {} }).start('run-3', {}),
    ).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(inner.calls).toBe(1);
  });
});
