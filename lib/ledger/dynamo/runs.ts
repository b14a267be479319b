import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { abortOf } from '../../aws/abort-of.js';
import type { RunRecord, RunStatus } from '../../model/run.js';
import { toRunHead, toRunRecord } from '../items.js';
import { COUNTER_PREFIX, RUN_LIST_KEY, runKey } from '../keys.js';
import type { Ledger, LedgerRequest, NewRun, RunPatch } from '../ledger.js';
import { isConditionFailure } from './classify-error.js';
import { itemAbsent, itemExists, runStatusIn } from './conditions.js';
import type { LedgerContext } from './context.js';
import { and, assign, expression } from './expression.js';

type RunOps = Pick<Ledger, 'createRun' | 'getRun' | 'getRunHead' | 'updateRun' | 'resetBreaker' | 'listRuns'>;

/** Runs: the META item (status, source, totals) and the counter shards summed into it. */
export function runOperations(ctx: LedgerContext): RunOps {
  const iso = () => new Date(ctx.now()).toISOString();

  /** The run's counter shards and META item: one consistent Query (`COUNT#…` sorts before `META`). */
  const readRun = async (runId: string, request?: LedgerRequest) => {
    const r = await ctx.retrying(() =>
      ctx.db.send(
        new QueryCommand({
          TableName: ctx.table,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': runKey(runId).PK, ':from': COUNTER_PREFIX, ':to': 'META' },
          ConsistentRead: true,
        }),
        abortOf(request),
      ),
    );
    const items = r.Items ?? [];
    const meta = items.find((i) => i.SK === 'META');
    return { meta, shards: items.filter((i) => i.SK !== 'META') };
  };

  const getRun = async (runId: string, request?: LedgerRequest): Promise<RunRecord | undefined> => {
    const { meta, shards } = await readRun(runId, request);
    return meta ? toRunRecord(meta, shards) : undefined;
  };

  return {
    async createRun(run: NewRun) {
      const at = iso();
      try {
        await ctx.retrying(() =>
          ctx.db.send(
            new PutCommand({
              TableName: ctx.table,
              Item: {
                ...runKey(run.runId),
                listKey: RUN_LIST_KEY,
                runId: run.runId,
                status: run.status,
                source: run.source,
                operation: run.operation,
                params: run.params,
                paramsVersion: run.paramsVersion,
                total: run.total,
                breaker: 'CLOSED',
                executionArn: run.executionArn,
                reason: run.reason,
                sourceDatetime: run.sourceDatetime,
                warnings: run.warnings,
                createdAt: at,
                updatedAt: at,
              },
              ...expression({ condition: itemAbsent }),
            }),
          ),
        );
        return 'created';
      } catch (error) {
        if (isConditionFailure(error)) return 'exists';
        throw error;
      }
    },

    getRun,

    async getRunHead(runId, request) {
      const r = await ctx.retrying(() =>
        ctx.db.send(
          new GetCommand({ TableName: ctx.table, Key: runKey(runId), ConsistentRead: true }),
          abortOf(request),
        ),
      );
      return r.Item ? toRunHead(r.Item) : undefined;
    },

    async updateRun(runId, patch: RunPatch, onlyFrom?: readonly RunStatus[]) {
      const condition = onlyFrom && onlyFrom.length > 0 ? and(itemExists, runStatusIn(onlyFrom)) : itemExists;
      try {
        await ctx.retrying(() =>
          ctx.db.send(
            new UpdateCommand({
              TableName: ctx.table,
              Key: runKey(runId),
              ...expression({ set: [assign({ ...patch, updatedAt: iso() })], condition }),
            }),
          ),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async resetBreaker(runId) {
      // The shards keep their counts; the META item holds the opposite of their sum, so the
      // run's `retried` reads 0 after one write, without touching every shard.
      const { shards } = await readRun(runId);
      const retried = shards.reduce((n, s) => n + Number(s.retried ?? 0), 0);
      await ctx.retrying(() =>
        ctx.db.send(
          new UpdateCommand({
            TableName: ctx.table,
            Key: runKey(runId),
            ...expression({
              set: [assign({ retried: -retried, breaker: 'CLOSED', updatedAt: iso() })],
              condition: itemExists,
            }),
          }),
        ),
      );
    },

    async listRuns(limit = 50) {
      const r = await ctx.retrying(() =>
        ctx.db.send(
          new QueryCommand({
            TableName: ctx.table,
            IndexName: 'runs',
            KeyConditionExpression: 'listKey = :k',
            ExpressionAttributeValues: { ':k': RUN_LIST_KEY },
            ScanIndexForward: false,
            Limit: limit,
          }),
        ),
      );
      const found = await Promise.all((r.Items ?? []).map((item) => getRun(String(item.runId))));
      return found.filter((run): run is RunRecord => run !== undefined);
    },
  };
}

/** The run's status alone (the reaper's question), one small read. */
export async function readRunStatus(ctx: LedgerContext, runId: string): Promise<RunStatus | undefined> {
  const r = await ctx.retrying(() =>
    ctx.db.send(
      new GetCommand({
        TableName: ctx.table,
        Key: runKey(runId),
        ProjectionExpression: '#status',
        ExpressionAttributeNames: { '#status': 'status' },
        ConsistentRead: true,
      }),
    ),
  );
  return r.Item?.status as RunStatus | undefined;
}
