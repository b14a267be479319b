import { describe, expect, it } from 'vitest';
import {
  createLocalExecutions,
  type ExecutionStatusEvent,
} from '../../../../local/statemachine/local-executions.js';

const ARN = 'arn:aws:lambda:us-east-1:000000000000:function:task';

/** A loop of Lambda tasks that never ends on its own: Task → Choice → Task … */
const endlessLoop = {
  StartAt: 'Work',
  States: {
    Work: { Type: 'Task', Resource: ARN, ResultPath: '$.last', Next: 'Again' },
    Again: {
      Type: 'Choice',
      Choices: [{ Variable: '$.last.stop', BooleanEquals: true, Next: 'Done' }],
      Default: 'Work',
    },
    Done: { Type: 'Succeed' },
  },
};

describe('local executions with Step Functions’ limits', () => {
  it('fail at the history limit with AWS’s error, reported like an EventBridge event', async () => {
    const events: ExecutionStatusEvent[] = [];
    const executions = createLocalExecutions({
      definition: endlessLoop,
      handlers: { Work: async () => ({ stop: false }) },
      historyLimit: 50,
      onStatus: async (e) => {
        events.push(e);
      },
    });
    const { executionArn } = await executions.start('loop', { runId: 'r-12345678' });
    const execution = await executions.wait(executionArn);
    expect(execution.status).toBe('FAILED');
    expect(execution.error).toBe('States.Runtime');
    expect(execution.cause).toMatch(/maximum number of history events \(50\)/);
    // Each turn is 7 events (Task 5, Choice 2): the limit is met within a turn of 50.
    expect(execution.historyEvents).toBeGreaterThanOrEqual(50);
    expect(execution.historyEvents).toBeLessThan(50 + 7);
    expect(events).toEqual([
      {
        detail: {
          executionArn,
          status: 'FAILED',
          input: JSON.stringify({ runId: 'r-12345678' }),
          error: 'States.Runtime',
          cause: execution.cause,
        },
      },
    ]);
  });

  it('fail a state whose output passes 256 KiB with States.DataLimitExceeded', async () => {
    const executions = createLocalExecutions({
      definition: endlessLoop,
      handlers: { Work: async () => ({ stop: true, blob: 'x'.repeat(256 * 1024) }) },
    });
    const { executionArn } = await executions.start('big', {});
    const execution = await executions.wait(executionArn);
    expect({ status: execution.status, error: execution.error }).toEqual({
      status: 'FAILED',
      error: 'States.DataLimitExceeded',
    });
  });

  it('let a run just under both limits succeed', async () => {
    const executions = createLocalExecutions({
      definition: endlessLoop,
      handlers: { Work: async () => ({ stop: true, blob: 'x'.repeat(200 * 1024) }) },
      historyLimit: 20,
    });
    const { executionArn } = await executions.start('small', {});
    const execution = await executions.wait(executionArn);
    expect(execution.status).toBe('SUCCEEDED');
    expect(execution.historyEvents).toBe(1 + 5 + 2 + 2 + 1);
  });
});
