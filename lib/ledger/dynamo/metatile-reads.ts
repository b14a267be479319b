import { BatchGetCommand, type BatchGetCommandOutput, GetCommand } from '@aws-sdk/lib-dynamodb';
import { abortOf } from '../../aws/abort-of.js';
import type { MetatileRecord } from '../../model/run.js';
import { toMetatileRecord } from '../items.js';
import { METATILE_PREFIX, metatileKey, runKey } from '../keys.js';
import type { Ledger, LedgerRequest } from '../ledger.js';
import { inAnyState } from './conditions.js';
import type { LedgerContext } from './context.js';
import { queryPages, queryPagesFanningOut } from './query-items.js';

type MetatileReads = Pick<Ledger, 'getMetatile' | 'getMetatiles' | 'listMetatiles'>;

/** The reads of metatile records: one, a batch, or a run's (paged, fanned out by leading digit). */
export function metatileReads(ctx: LedgerContext): MetatileReads {
  const getMetatile = async (runId: string, metatileId: string, request?: LedgerRequest) => {
    const r = await ctx.retrying(() =>
      ctx.db.send(
        new GetCommand({ TableName: ctx.table, Key: metatileKey(runId, metatileId), ConsistentRead: true }),
        abortOf(request),
      ),
    );
    return r.Item ? toMetatileRecord(r.Item) : undefined;
  };

  return {
    getMetatile,

    async getMetatiles(runId, ids) {
      const found = new Map<string, MetatileRecord>();
      for (let i = 0; i < ids.length; i += 100) {
        let keys: Record<string, unknown>[] | undefined = ids
          .slice(i, i + 100)
          .map((id) => metatileKey(runId, id));
        while (keys && keys.length > 0) {
          const request: Record<string, unknown>[] = keys;
          const r: BatchGetCommandOutput = await ctx.retrying(() =>
            ctx.db.send(
              new BatchGetCommand({ RequestItems: { [ctx.table]: { Keys: request, ConsistentRead: true } } }),
            ),
          );
          for (const item of r.Responses?.[ctx.table] ?? []) {
            const record = toMetatileRecord(item);
            found.set(record.metatileId, record);
          }
          keys = r.UnprocessedKeys?.[ctx.table]?.Keys;
        }
      }
      return found;
    },

    async *listMetatiles(runId, options = {}) {
      // Only the states asked for cross the wire (a re-drive wants the few stopped ones, not the markers).
      const only = options.states ? inAnyState(options.states) : undefined;
      const query = (digits: string) => ({
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :unit)',
        ExpressionAttributeValues: {
          ':pk': runKey(runId).PK,
          ':unit': `${METATILE_PREFIX}${digits}`,
          ...only?.values,
        },
        ...(only ? { FilterExpression: only.text, ExpressionAttributeNames: only.names } : {}),
        ConsistentRead: true,
      });
      // Metatile ids are hex digests: a run too large for one page is read one leading digit per query.
      const pages =
        options.parallel === true
          ? queryPagesFanningOut(ctx, METATILE_PREFIX, query)
          : queryPages(ctx, query(''));
      for await (const page of pages) for (const item of page) yield toMetatileRecord(item);
    },
  };
}
