import { type DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { runKey } from './keys.js';

export type ExecutionEnd = 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT' | 'HANDED_OVER';

/** One execution that coordinated (part of) a run: a run of any length is a chain of them. */
export interface ExecutionLink {
  readonly executionArn: string;
  /** Why it started: the upload, a hand-over before the history limit, or an operator's re-drive. */
  readonly reason: 'upload' | 'handover' | 'redrive';
  readonly startedAt: string;
  readonly status: 'RUNNING' | ExecutionEnd;
  readonly endedAt?: string;
  readonly error?: string;
  readonly cause?: string;
}

/**
 * The executions of each run, in start order (docs/architecture.md, "Runs of any length").
 * Kept apart from the run's counters: one small item per execution under the run's partition.
 */
export interface ExecutionChain {
  /** Records a started execution; recording the same one twice keeps the first record. */
  started(runId: string, executionArn: string, reason: ExecutionLink['reason']): Promise<void>;
  /** Records how it ended; an execution already recorded as ended keeps its first end. */
  ended(
    runId: string,
    executionArn: string,
    end: { status: ExecutionEnd; error?: string; cause?: string },
  ): Promise<void>;
  list(runId: string): Promise<ExecutionLink[]>;
}

/**
 * Sorts after `META` and `UNIT#`: neither the run's read (`COUNT#…` to `META`) nor the
 * metatile Query (`UNIT#…`) ever meets a link of the chain.
 */
const EXEC_PREFIX = 'XEXEC#';
const nameOf = (arn: string) => arn.slice(arn.lastIndexOf(':') + 1);

/** The chain in the ledger's table: `PK=RUN#<run>, SK=XEXEC#<startedAt>#<name>`. */
export function createDynamoExecutionChain(
  db: DynamoDBDocumentClient,
  table: string,
  now: () => number = Date.now,
): ExecutionChain {
  const find = async (runId: string, executionArn: string) =>
    (await list(runId)).find((l) => l.executionArn === executionArn) as
      | (ExecutionLink & { SK: string })
      | undefined;

  const list = async (runId: string) => {
    const links: (ExecutionLink & { SK: string })[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :exec)',
          ExpressionAttributeValues: { ':pk': runKey(runId).PK, ':exec': EXEC_PREFIX },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) links.push(item as ExecutionLink & { SK: string });
      start = page.LastEvaluatedKey;
    } while (start);
    return links;
  };

  return {
    async started(runId, executionArn, reason) {
      if (await find(runId, executionArn)) return;
      const startedAt = new Date(now()).toISOString();
      await db.send(
        new PutCommand({
          TableName: table,
          Item: {
            PK: runKey(runId).PK,
            SK: `${EXEC_PREFIX}${startedAt}#${nameOf(executionArn)}`,
            executionArn,
            reason,
            startedAt,
            status: 'RUNNING',
          },
          ConditionExpression: 'attribute_not_exists(SK)',
        }),
      );
    },
    async ended(runId, executionArn, end) {
      const link = await find(runId, executionArn);
      if (link?.status !== 'RUNNING') return;
      await db
        .send(
          new UpdateCommand({
            TableName: table,
            Key: { PK: runKey(runId).PK, SK: link.SK },
            UpdateExpression: 'SET #s = :s, endedAt = :t, #e = :e, #c = :c',
            ConditionExpression: '#s = :running',
            ExpressionAttributeNames: { '#s': 'status', '#e': 'error', '#c': 'cause' },
            ExpressionAttributeValues: {
              ':s': end.status,
              ':t': new Date(now()).toISOString(),
              ':e': end.error ?? null,
              ':c': end.cause?.slice(0, 2_000) ?? null,
              ':running': 'RUNNING',
            },
          }),
        )
        .catch((error: unknown) => {
          // Ended twice at once (the event and the task that handed over): the first end stands.
          if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
        });
    },
    async list(runId) {
      return (await list(runId)).map((item) => {
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
