import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ExecutionChain, ExecutionLink } from '../execution-chain.js';
import { runKey } from '../keys.js';
import { isConditionFailure } from './classify-error.js';
import { type DynamoLedgerOptions, ledgerContext } from './context.js';
import { assign, expression, type Part, updateExpression } from './expression.js';
import { queryItems } from './query-items.js';

/**
 * Sorts after `META` and `UNIT#`: neither the run's read (`COUNT#…` to `META`) nor the
 * metatile Query (`UNIT#…`) ever meets a link of the chain.
 */
const EXEC_PREFIX = 'XEXEC#';
const nameOf = (arn: string) => arn.slice(arn.lastIndexOf(':') + 1);

type StoredLink = ExecutionLink & { readonly SK: string };

const linkAbsent: Part = { text: 'attribute_not_exists(SK)' };
const stillRunning: Part = {
  text: '#status = :running',
  names: { '#status': 'status' },
  values: { ':running': 'RUNNING' },
};

/**
 * The chain in the ledger's table: `PK=RUN#<run>, SK=XEXEC#<startedAt>#<name>`, with the
 * ledger's bounded retry of transient failures on every request.
 */
export function createDynamoExecutionChain(
  db: DynamoDBDocumentClient,
  table: string,
  options: DynamoLedgerOptions = {},
): ExecutionChain {
  const ctx = ledgerContext(db, table, options);
  const stored = async (runId: string) => {
    const links: StoredLink[] = [];
    const query = {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :exec)',
      ExpressionAttributeValues: { ':pk': runKey(runId).PK, ':exec': EXEC_PREFIX },
    };
    for await (const item of queryItems(ctx, query)) links.push(item as unknown as StoredLink);
    return links;
  };
  const find = async (runId: string, executionArn: string) =>
    (await stored(runId)).find((l) => l.executionArn === executionArn);

  return {
    async started(runId, executionArn, reason) {
      if (await find(runId, executionArn)) return;
      const startedAt = new Date(ctx.now()).toISOString();
      const item = { executionArn, reason, startedAt, status: 'RUNNING' };
      const SK = `${EXEC_PREFIX}${startedAt}#${nameOf(executionArn)}`;
      await ctx
        .retrying(() =>
          db.send(
            new PutCommand({
              TableName: table,
              Item: { PK: runKey(runId).PK, SK, ...item },
              ...expression({ condition: linkAbsent }),
            }),
          ),
        )
        // A retry whose first attempt did land: the record stands.
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        });
    },
    async ended(runId, executionArn, end) {
      const link = await find(runId, executionArn);
      if (link?.status !== 'RUNNING') return;
      const fields = {
        status: end.status,
        endedAt: new Date(ctx.now()).toISOString(),
        error: end.error ?? null,
        cause: end.cause?.slice(0, 2_000) ?? null,
      };
      await ctx
        .retrying(() =>
          db.send(
            new UpdateCommand({
              TableName: table,
              Key: { PK: runKey(runId).PK, SK: link.SK },
              ...updateExpression({ set: [assign(fields)], condition: stillRunning }),
            }),
          ),
        )
        // Ended twice at once (the event and the task that handed over): the first end stands.
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        });
    },
    async list(runId) {
      return (await stored(runId)).map((item) => {
        const link: ExecutionLink = {
          executionArn: item.executionArn,
          reason: item.reason,
          startedAt: item.startedAt,
          status: item.status,
        };
        // Absent fields stay absent (DynamoDB holds them as null).
        return Object.assign(
          link,
          item.endedAt ? { endedAt: item.endedAt } : {},
          item.error ? { error: item.error } : {},
          item.cause ? { cause: item.cause } : {},
        );
      });
    },
  };
}
