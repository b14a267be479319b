import { describe, expect, it } from 'vitest';
import { redrive } from '../../../lib/coordination/redrive.js';
import type { ExecutionStarter } from '../../../lib/executions/execution-starter.js';
import { metatileMessage } from '../../../lib/model/message.js';
import { faultyStack } from '../../support/fault-stack.js';
import { seedLedgerRun } from '../../support/ledger-run.js';

describe('re-drive against SQS short polling', () => {
  it('moves every dead letter of the run though every short-poll receive comes back empty', async () => {
    // SQS answers a short poll from a sample of its servers: it may say "no message" while the
    // queue holds some. A re-drive that took an empty short poll for an empty queue left the
    // run's dead letters where they were (work only another re-drive could recover).
    const stack = await faultyStack({ GEOHUB_FAULT_SQS_EMPTY_SHORT_POLL: '1' });
    const { runId, metatiles } = await seedLedgerRun(stack.ledger, 12, 2);
    const bodies = metatiles.map((m) => metatileMessage(runId, m));
    expect((await stack.deadLetters.sendBatch(bodies)).failed).toEqual([]);
    const started: string[] = [];
    const starter: ExecutionStarter = {
      arnFor: (name) => `arn:aws:states:us-east-1:000000000000:execution:geohub-local:${name}`,
      start: async (name) => {
        started.push(name);
        return { executionArn: starter.arnFor(name), started: true };
      },
    };

    const report = await redrive({ ...stack, starter }, runId);

    expect(report.runs).toMatchObject([{ runId, fromDeadLetters: 24 }]);
    expect(started).toHaveLength(1);
    expect(stack.behaviour.counts().injected.sqs.EmptyShortPoll ?? 0).toBe(0);
    // None of the run's letters is left behind (a long poll asks every server).
    const left = await stack.deadLetters.receive(10, 1, 0);
    expect(left.map((m) => m.body).filter((b) => b.includes(runId))).toEqual([]);
  });
});
