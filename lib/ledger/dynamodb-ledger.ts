import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { RunStatus, TileRecord } from '../model/run.js';
import type { TileTask } from '../model/tile.js';
import { LeaseLostError } from './errors.js';
import { toRunRecord, toTileRecord } from './items.js';
import { RUN_LIST_KEY, runKey, TILE_PREFIX, tileKey } from './keys.js';
import type { ClaimResult, Ledger, NewRun, Release, RunPatch } from './ledger.js';

export interface DynamoLedgerOptions {
  readonly now?: () => number;
}

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed'));

/** The Ledger on one DynamoDB table (DynamoDB Local on a laptop). */
export function createDynamoLedger(
  db: DynamoDBDocumentClient,
  table: string,
  options: DynamoLedgerOptions = {},
): Ledger {
  const now = options.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();

  /** Updates a claimed tile we own and bumps a run counter, all or nothing. */
  const transitionOwned = async (
    runId: string,
    tileId: string,
    owner: string,
    set: string,
    values: Record<string, unknown>,
    counter?: string,
    extraAdd = '',
    names: Record<string, string> = {},
  ) => {
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      {
        Update: {
          TableName: table,
          Key: tileKey(runId, tileId),
          UpdateExpression: `SET ${set}, updatedAt = :now REMOVE #owner, leaseUntil, leaseRun${extraAdd}`,
          ConditionExpression: '#owner = :owner AND #state = :claimed',
          ExpressionAttributeNames: { '#owner': 'owner', '#state': 'state', ...names },
          ExpressionAttributeValues: { ...values, ':owner': owner, ':claimed': 'CLAIMED', ':now': iso() },
        },
      },
    ];
    if (counter) {
      items.push({
        Update: {
          TableName: table,
          Key: runKey(runId),
          UpdateExpression: `ADD #c :one SET updatedAt = :now`,
          ExpressionAttributeNames: { '#c': counter },
          ExpressionAttributeValues: { ':one': 1, ':now': iso() },
        },
      });
    }
    await db.send(new TransactWriteCommand({ TransactItems: items }));
  };

  const ledger: Ledger = {
    async createRun(run: NewRun) {
      const at = iso();
      try {
        await db.send(
          new PutCommand({
            TableName: table,
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
              done: 0,
              failed: 0,
              cancelled: 0,
              parked: 0,
              interrupted: 0,
              retried: 0,
              breaker: 'CLOSED',
              executionArn: run.executionArn,
              reason: run.reason,
              createdAt: at,
              updatedAt: at,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          }),
        );
        return 'created';
      } catch (error) {
        if (isConditionFailure(error)) return 'exists';
        throw error;
      }
    },

    async getRun(runId) {
      const { Item } = await db.send(
        new GetCommand({ TableName: table, Key: runKey(runId), ConsistentRead: true }),
      );
      return Item ? toRunRecord(Item) : undefined;
    },

    async updateRun(runId, patch: RunPatch, onlyFrom?: readonly RunStatus[]) {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':now': iso() };
      const sets = ['updatedAt = :now'];
      for (const [field, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        names[`#${field}`] = field;
        values[`:${field}`] = value;
        sets.push(`#${field} = :${field}`);
      }
      const from = (onlyFrom ?? []).map((s, i) => {
        values[`:from${i}`] = s;
        return `:from${i}`;
      });
      // DynamoDB rejects names an expression does not use.
      if (from.length > 0) names['#status'] = 'status';
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: runKey(runId),
            UpdateExpression: `SET ${sets.join(', ')}`,
            ConditionExpression:
              from.length > 0
                ? `attribute_exists(PK) AND #status IN (${from.join(', ')})`
                : 'attribute_exists(PK)',
            ExpressionAttributeNames: Object.keys(names).length > 0 ? names : undefined,
            ExpressionAttributeValues: values,
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async resetBreaker(runId) {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: runKey(runId),
          UpdateExpression: 'SET retried = :zero, breaker = :closed, updatedAt = :now',
          ExpressionAttributeValues: { ':zero': 0, ':closed': 'CLOSED', ':now': iso() },
        }),
      );
    },

    async listRuns(limit = 50) {
      const r = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: 'runs',
          KeyConditionExpression: 'listKey = :k',
          ExpressionAttributeValues: { ':k': RUN_LIST_KEY },
          ScanIndexForward: false,
          Limit: limit,
        }),
      );
      return (r.Items ?? []).map(toRunRecord);
    },

    async getTiles(runId, tileIds) {
      const found = new Map<string, TileRecord>();
      for (let i = 0; i < tileIds.length; i += 100) {
        let keys: Record<string, unknown>[] | undefined = tileIds
          .slice(i, i + 100)
          .map((id) => tileKey(runId, id));
        while (keys && keys.length > 0) {
          const r: BatchGetCommandOutput = await db.send(
            new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } }),
          );
          for (const item of r.Responses?.[table] ?? []) {
            const tile = toTileRecord(item);
            found.set(tile.tileId, tile);
          }
          keys = r.UnprocessedKeys?.[table]?.Keys;
        }
      }
      return found;
    },

    async *listTiles(runId) {
      let start: Record<string, unknown> | undefined;
      do {
        const r = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'PK = :pk AND begins_with(SK, :tile)',
            ExpressionAttributeValues: { ':pk': runKey(runId).PK, ':tile': TILE_PREFIX },
            ExclusiveStartKey: start,
            ConsistentRead: true,
          }),
        );
        for (const item of r.Items ?? []) yield toTileRecord(item);
        start = r.LastEvaluatedKey;
      } while (start);
    },

    async claimTile(runId, tile: TileTask, owner, leaseMs): Promise<ClaimResult> {
      const at = now();
      try {
        const r = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: tileKey(runId, tile.id),
            UpdateExpression:
              'SET #state = :claimed, #owner = :owner, leaseUntil = :until, leaseRun = :run, runId = :run, ' +
              'tileId = :id, z = :z, x = :x, y = :y, updatedAt = :iso, ' +
              'attempts = if_not_exists(attempts, :zero) + :one',
            ConditionExpression:
              'attribute_not_exists(PK) OR #state = :queued OR (#state = :claimed AND leaseUntil < :now)',
            ExpressionAttributeNames: { '#state': 'state', '#owner': 'owner' },
            ExpressionAttributeValues: {
              ':claimed': 'CLAIMED',
              ':queued': 'QUEUED',
              ':owner': owner,
              ':until': at + leaseMs,
              ':now': at,
              ':run': runId,
              ':id': tile.id,
              ':z': tile.z,
              ':x': tile.x,
              ':y': tile.y,
              ':iso': new Date(at).toISOString(),
              ':zero': 0,
              ':one': 1,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return { outcome: 'claimed', attempts: Number(r.Attributes?.attempts ?? 1) };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const current = (await ledger.getTiles(runId, [tile.id])).get(tile.id);
        switch (current?.state) {
          case 'DONE':
            return { outcome: 'done' };
          case 'FAILED':
            return { outcome: 'failed' };
          case 'PARKED':
            return { outcome: 'parked' };
          case 'CANCELLED':
            return { outcome: 'cancelled' };
          default:
            return { outcome: 'held', leaseUntil: current?.leaseUntil ?? at };
        }
      }
    },

    async extendLease(runId, tileId, owner, leaseMs) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: tileKey(runId, tileId),
            UpdateExpression: 'SET leaseUntil = :until',
            ConditionExpression: '#owner = :owner AND #state = :claimed',
            ExpressionAttributeNames: { '#owner': 'owner', '#state': 'state' },
            ExpressionAttributeValues: { ':until': now() + leaseMs, ':owner': owner, ':claimed': 'CLAIMED' },
          }),
        );
      } catch (error) {
        if (isConditionFailure(error)) {
          throw new LeaseLostError(`lease on ${runId}/${tileId} is no longer held by ${owner}`, {
            cause: error,
          });
        }
        throw error;
      }
    },

    async releaseTile(runId, tileId, owner, release: Release) {
      const values: Record<string, unknown> = { ':state': release.state };
      let set = '#state = :state';
      if (release.error) {
        set += ', lastError = :error';
        values[':error'] = release.error;
      }
      let counter: string | undefined;
      let add = '';
      if (release.state === 'QUEUED' && release.interrupted) {
        counter = 'interrupted';
        add = ' ADD interruptions :one';
        values[':one'] = 1;
      } else if (release.state === 'QUEUED' && release.error) counter = 'retried';
      else if (release.state === 'PARKED') counter = 'parked';
      else if (release.state === 'CANCELLED') counter = 'cancelled';
      try {
        await transitionOwned(runId, tileId, owner, set, values, counter, add);
      } catch (error) {
        // A lease that is no longer ours was already given back (reaper) or taken over: nothing to release.
        if (!isConditionFailure(error)) throw error;
      }
    },

    async markDone(runId, tileId, owner, output, durationMs) {
      try {
        await transitionOwned(
          runId,
          tileId,
          owner,
          '#state = :done, #output = :output, durationMs = :ms',
          { ':done': 'DONE', ':output': output, ':ms': durationMs },
          'done',
          '',
          { '#output': 'output' },
        );
      } catch (error) {
        if (isConditionFailure(error)) {
          throw new LeaseLostError(`cannot mark ${runId}/${tileId} done: the lease is no longer ours`, {
            cause: error,
          });
        }
        throw error;
      }
    },

    async markFailed(runId, tileId, owner, tileError) {
      try {
        await transitionOwned(
          runId,
          tileId,
          owner,
          '#state = :failed, #error = :error',
          { ':failed': 'FAILED', ':error': tileError },
          'failed',
          '',
          { '#error': 'error' },
        );
      } catch (error) {
        if (isConditionFailure(error)) {
          throw new LeaseLostError(`cannot mark ${runId}/${tileId} failed: the lease is no longer ours`, {
            cause: error,
          });
        }
        throw error;
      }
    },

    async parkTiles(runId, tiles, state, tileError) {
      const counter = state === 'PARKED' ? 'parked' : 'cancelled';
      for (const tile of tiles) {
        try {
          await db.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Update: {
                    TableName: table,
                    Key: tileKey(runId, tile.id),
                    UpdateExpression:
                      'SET #state = :state, lastError = :error, runId = :run, tileId = :id, z = :z, x = :x, y = :y, ' +
                      'attempts = if_not_exists(attempts, :zero), updatedAt = :iso',
                    ConditionExpression: 'attribute_not_exists(PK) OR #state = :queued',
                    ExpressionAttributeNames: { '#state': 'state' },
                    ExpressionAttributeValues: {
                      ':state': state,
                      ':error': tileError,
                      ':queued': 'QUEUED',
                      ':run': runId,
                      ':id': tile.id,
                      ':z': tile.z,
                      ':x': tile.x,
                      ':y': tile.y,
                      ':zero': 0,
                      ':iso': iso(),
                    },
                  },
                },
                {
                  Update: {
                    TableName: table,
                    Key: runKey(runId),
                    UpdateExpression: 'ADD #c :one',
                    ExpressionAttributeNames: { '#c': counter },
                    ExpressionAttributeValues: { ':one': 1 },
                  },
                },
              ],
            }),
          );
        } catch (error) {
          // Already done, failed or parked: it is accounted for once, where it is.
          if (!isConditionFailure(error)) throw error;
        }
      }
    },

    async unparkTiles(runId) {
      const moved: TileTask[] = [];
      for await (const tile of ledger.listTiles(runId)) {
        if (tile.state !== 'PARKED' && tile.state !== 'CANCELLED' && tile.state !== 'FAILED') continue;
        const counter =
          tile.state === 'PARKED' ? 'parked' : tile.state === 'CANCELLED' ? 'cancelled' : 'failed';
        try {
          await db.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Update: {
                    TableName: table,
                    Key: tileKey(runId, tile.tileId),
                    // A fresh budget: the attempts of the stopped work do not count against the re-drive.
                    UpdateExpression: 'SET #state = :queued, attempts = :zero, updatedAt = :iso',
                    ConditionExpression: '#state = :was',
                    ExpressionAttributeNames: { '#state': 'state' },
                    ExpressionAttributeValues: {
                      ':queued': 'QUEUED',
                      ':was': tile.state,
                      ':zero': 0,
                      ':iso': iso(),
                    },
                  },
                },
                {
                  Update: {
                    TableName: table,
                    Key: runKey(runId),
                    UpdateExpression: 'ADD #c :minus',
                    ExpressionAttributeNames: { '#c': counter },
                    ExpressionAttributeValues: { ':minus': -1 },
                  },
                },
              ],
            }),
          );
          moved.push({ id: tile.tileId, z: tile.z, x: tile.x, y: tile.y });
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
        }
      }
      return moved;
    },

    async reapExpiredLeases(runId, at) {
      let reaped = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const r = await db.send(
          new QueryCommand({
            TableName: table,
            IndexName: 'leases',
            KeyConditionExpression: 'leaseRun = :run AND leaseUntil < :now',
            ExpressionAttributeValues: { ':run': runId, ':now': at },
            ExclusiveStartKey: start,
          }),
        );
        for (const key of r.Items ?? []) {
          try {
            await db.send(
              new UpdateCommand({
                TableName: table,
                Key: { PK: key.PK, SK: key.SK },
                UpdateExpression: 'SET #state = :queued REMOVE #owner, leaseUntil, leaseRun',
                ConditionExpression: '#state = :claimed AND leaseUntil < :now',
                ExpressionAttributeNames: { '#state': 'state', '#owner': 'owner' },
                ExpressionAttributeValues: { ':queued': 'QUEUED', ':claimed': 'CLAIMED', ':now': at },
              }),
            );
            reaped += 1;
          } catch (error) {
            if (!isConditionFailure(error)) throw error;
          }
        }
        start = r.LastEvaluatedKey;
      } while (start);
      return reaped;
    },
  };
  return ledger;
}
