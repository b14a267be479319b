import { describe, expect, it } from 'vitest';
import type { ExecutionChain, ExecutionLink } from '../../../../lib/ledger/execution-chain.js';
import type { RunRecord } from '../../../../lib/model/run.js';
import type { ExecutionSnapshot } from '../../../../local/server/run-control.js';
import { runView } from '../../../../local/server/run-view.js';

const arn = (name: string) => `arn:aws:states:us-east-1:000000000000:execution:geohub-local:${name}`;
const links: ExecutionLink[] = [
  { executionArn: arn('r-1'), reason: 'upload', startedAt: '2026-12-07T00:00:00Z', status: 'ABORTED' },
  {
    executionArn: arn('r-1-redrive-1'),
    reason: 'redrive',
    startedAt: '2026-12-07T00:01:00Z',
    status: 'RUNNING',
  },
];
const chain = { list: async () => links } as unknown as ExecutionChain;
const run = { runId: 'r-1', status: 'RUNNING', executionArn: arn('r-1-redrive-1') } as RunRecord;

function source() {
  const described: string[] = [];
  const execution = async (executionArn: string): Promise<ExecutionSnapshot> => {
    described.push(executionArn);
    return { status: 'RUNNING', state: 'CheckProgress', historyEvents: 40 };
  };
  return { described, source: { chain, execution } };
}

describe("runView: a run as geohub status and the page show it, on the local hub's API and on a stage", () => {
  it('is the record and its current execution, without the chain unless asked', async () => {
    const { described, source: s } = source();
    const view = await runView(s, run);
    expect(view).toEqual({ ...run, execution: { status: 'RUNNING', state: 'CheckProgress' } });
    expect(described).toEqual([run.executionArn]);
  });

  it("names each execution of the chain as Step Functions' console does, with its history size only when asked", async () => {
    const { described, source: s } = source();
    const plain = await runView(s, run, { chain: true });
    expect(plain.executions?.map((e) => e.name)).toEqual(['r-1', 'r-1-redrive-1']);
    expect(plain.executions?.every((e) => e.historyEvents === undefined)).toBe(true);
    // One description: the current execution's, none per link.
    expect(described).toHaveLength(1);

    const { source: s2 } = source();
    const detailed = await runView(s2, run, { chain: true, history: true });
    expect(detailed.executions?.map((e) => [e.name, e.reason, e.historyEvents])).toEqual([
      ['r-1', 'upload', 40],
      ['r-1-redrive-1', 'redrive', 40],
    ]);
  });

  it('a run whose execution never started has no execution', async () => {
    const { described, source: s } = source();
    const { executionArn: _, ...notStarted } = run;
    expect(await runView(s, notStarted as RunRecord)).toEqual(notStarted);
    expect(described).toEqual([]);
  });
});
