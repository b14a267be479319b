import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { descendants, isAlive, processTable } from '../../../lib/process/process-table.js';
import { nodeEntry } from '../../../local/node-entry.js';
import { readResources } from '../../../local/stack/resources.js';
import { LOCAL_ACCOUNT, LOCAL_REGION, LOCAL_STAGE, startLocalStack } from '../../../local/stack/stack.js';
import { markFileProcesses, processMark } from '../../support/marked-processes.js';
import { stackClients } from '../../support/stack-clients.js';
import { waitUntil } from '../../support/wait-until.js';

const { config, clients } = stackClients();
// What this file starts, told apart from what files running beside it start.
const fileProcesses = markFileProcesses();
afterAll(() => clients.destroy());
const resources = readResources({ stage: LOCAL_STAGE, accountId: LOCAL_ACCOUNT, region: LOCAL_REGION });

const sortBy = <T>(items: readonly T[], key: (t: T) => string) =>
  [...items].sort((a, b) => key(a).localeCompare(key(b)));

describe('the local stack is built from the definitions serverless.yml deploys', () => {
  it('creates the ledger table with the keys and indexes of serverless.yml', async () => {
    const { Table } = await clients.dynamodb.send(new DescribeTableCommand({ TableName: config.table }));
    expect(Table?.TableName).toBe('geohub-local-ledger');
    expect(Table?.KeySchema).toEqual(resources.table.KeySchema);
    expect(sortBy(Table?.AttributeDefinitions ?? [], (a) => a.AttributeName!)).toEqual(
      sortBy(resources.table.AttributeDefinitions, (a) => a.AttributeName),
    );
    const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((i) => ({
      IndexName: i.IndexName,
      KeySchema: i.KeySchema,
      Projection: { ProjectionType: i.Projection?.ProjectionType },
    }));
    expect(sortBy(indexes, (i) => i.IndexName!)).toEqual(
      sortBy(resources.table.GlobalSecondaryIndexes, (i) => i.IndexName),
    );
    expect(indexes.map((i) => i.IndexName).sort()).toEqual(['leases', 'runs']);
  });

  it('creates the work queue with its visibility and its redrive policy to the dead-letter queue', async () => {
    const work = resources.queues.find((q) => q.logicalId === 'WorkQueue')!;
    const { Attributes } = await clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: config.queueUrl, AttributeNames: ['All'] }),
    );
    const dlq = await clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: config.deadLetterQueueUrl, AttributeNames: ['QueueArn'] }),
    );
    expect(Attributes?.VisibilityTimeout).toBe(work.attributes.VisibilityTimeout);
    expect(Attributes?.MessageRetentionPeriod).toBe(work.attributes.MessageRetentionPeriod);
    expect(JSON.parse(Attributes?.RedrivePolicy ?? '{}')).toEqual({
      deadLetterTargetArn: dlq.Attributes?.QueueArn,
      maxReceiveCount: work.redrive?.maxReceiveCount,
    });
    expect(work.redrive?.maxReceiveCount).toBe(3);
  });
});

describe('the local stack leaves nothing running', () => {
  it('stop() ends every emulator process, Java included', async () => {
    const stack = await startLocalStack();
    const tree = stack.pids.flatMap((pid) => [pid, ...descendants(pid)]);
    expect(processTable().some((p) => tree.includes(p.pid) && p.args.includes('DynamoDBLocal.jar'))).toBe(
      true,
    );
    await stack.stop();
    expect(await waitUntil(() => tree.every((pid) => !isAlive(pid)), 10_000)).toBe(true);
  });

  it('a parent killed with SIGKILL takes its emulators with it', async () => {
    const entry = nodeEntry(new URL('../../support/start-stack-main.ts', import.meta.url));
    const parent = spawn(process.execPath, entry, { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: parent.stdout! }).once('line', resolve);
        parent.once('exit', (code) => reject(new Error(`stack parent exited early (${code})`)));
      });
      const { pids } = JSON.parse(line) as { pids: number[] };
      const tree = [...pids, ...pids.flatMap((pid) => descendants(pid))];
      expect(tree.length).toBeGreaterThanOrEqual(4);
      parent.kill('SIGKILL');
      expect(await waitUntil(() => tree.every((pid) => !isAlive(pid)), 15_000)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('a parent killed with SIGKILL while DynamoDB Local still starts leaves nothing behind either', async () => {
    const mark = processMark();
    const entry = nodeEntry(new URL('../../support/start-stack-main.ts', import.meta.url));
    const parent = spawn(process.execPath, entry, { stdio: 'ignore', env: { ...process.env, ...mark.env } });
    try {
      // Killed as soon as its Java exists: long before DynamoDB Local answers.
      expect(await waitUntil(() => mark.live().some((p) => / java /.test(p)), 30_000, 10)).toBe(true);
      parent.kill('SIGKILL');
      // Before the fix the DynamoDB stand-in waited out its 150 s start deadline.
      expect(await waitUntil(() => mark.live().length === 0, 15_000)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('the suite stack is still the only one: no emulator this file started is left over', () => {
    const suite = inject('stackPids');
    const suiteTree = new Set(suite.flatMap((pid) => [pid, ...descendants(pid)]));
    // This file's processes only: files running beside it, and other suites, have emulators of their own.
    const strays = fileProcesses
      .live()
      .filter(
        (p) =>
          (p.args.includes('DynamoDBLocal.jar') || p.args.includes('emulator-main')) && !suiteTree.has(p.pid),
      );
    expect(strays.map((p) => `${p.pid} ${p.args}`)).toEqual([]);
  });
});
