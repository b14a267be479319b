import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFINITION_FILE, readDefinition } from '../../../local/statemachine/definition.js';

describe('the state machine definition', () => {
  it('passes asl-validator', () => {
    const out = execFileSync('npx', ['asl-validator', '--json-path', DEFINITION_FILE], { encoding: 'utf8' });
    expect(out).toContain('is valid');
  });

  it('uses only Lambda tasks and the states the local runner supports', () => {
    const states = readDefinition().States as Record<string, { Type: string; Resource?: string }>;
    const allowed = new Set(['Task', 'Wait', 'Choice', 'Map', 'Pass', 'Fail', 'Succeed']);
    for (const [name, state] of Object.entries(states)) {
      expect(allowed.has(state.Type), name).toBe(true);
      if (state.Type === 'Task') expect(state.Resource).toMatch(/^arn:aws:lambda:/);
    }
  });

  it('names the breaker in a state of its own, and retries and catches by error name', () => {
    const states = readDefinition().States as Record<string, Record<string, unknown>>;
    expect(states.CircuitBreakerOpen?.Type).toBe('Pass');
    expect(states.BreakerTripped).toMatchObject({ Type: 'Fail', Error: 'BreakerOpenError' });
    const retried = (states.Enqueue!.Retry as { ErrorEquals: string[] }[]).flatMap((r) => r.ErrorEquals);
    expect(retried).toContain('EnqueueSendError');
  });

  it("retries every Lambda task on Lambda's transient service errors, as AWS recommends", () => {
    // docs.aws.amazon.com/step-functions/latest/dg/bp-lambda-serviceexception.html, and
    // TooManyRequests when Lambda's concurrency is used up.
    const transient = [
      'Lambda.ClientExecutionTimeoutException',
      'Lambda.ServiceException',
      'Lambda.AWSLambdaException',
      'Lambda.SdkClientException',
      'Lambda.TooManyRequestsException',
    ];
    const states = readDefinition().States as Record<
      string,
      { Type: string; Retry?: { ErrorEquals: string[] }[] }
    >;
    const tasks = Object.entries(states).filter(([, s]) => s.Type === 'Task');
    expect(tasks.length).toBeGreaterThan(5);
    for (const [name, state] of tasks) {
      const retried = new Set((state.Retry ?? []).flatMap((r) => r.ErrorEquals));
      if (retried.has('States.ALL')) continue;
      expect(
        transient.filter((e) => !retried.has(e)),
        name,
      ).toEqual([]);
    }
  });

  it('hands over again when StartExecution stayed refused (a successor is named by its predecessor)', () => {
    const states = readDefinition().States as Record<string, { Retry?: { ErrorEquals: string[] }[] }>;
    const retried = (states.HandOver!.Retry ?? []).flatMap((r) => r.ErrorEquals);
    expect(retried).toContain('ExecutionStartThrottledError');
  });
});
