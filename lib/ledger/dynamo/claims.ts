import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { abortOf } from '../../aws/abort-of.js';
import { type Metatile, metatileFields } from '../../model/metatile.js';
import type { MetatileRecord } from '../../model/run.js';
import { LeaseLostError } from '../errors.js';
import { toMetatileRecord } from '../items.js';
import { leaseShardOf, METATILE_PREFIX, metatileKey, runKey } from '../keys.js';
import type { ClaimResult, Ledger, LedgerRequest } from '../ledger.js';
import { isConditionFailure } from './classify-error.js';
import { claimable, inAnyState, ownClaim } from './conditions.js';
import type { LedgerContext } from './context.js';
import { assign, expression, type Part } from './expression.js';
import { queryPages, queryPagesFanningOut } from './query-items.js';

type ClaimOps = Pick<Ledger, 'getMetatile' | 'getMetatiles' | 'listMetatiles' | 'claim' | 'extendLease'>;

const countAttempt: Part = {
  text: '#attempts = if_not_exists(#attempts, :zero) + :one',
  names: { '#attempts': 'attempts' },
  values: { ':zero': 0, ':one': 1 },
};

const OUTCOME_OF: Partial<Record<MetatileRecord['state'], 'done' | 'failed' | 'parked' | 'cancelled'>> = {
  DONE: 'done',
  FAILED: 'failed',
  PARKED: 'parked',
  CANCELLED: 'cancelled',
};

/** Claims (leases on metatiles) and the reads of metatile records. */
export function claimOperations(ctx: LedgerContext): ClaimOps {
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

    async claim(runId, metatile: Metatile, owner, leaseMs, request): Promise<ClaimResult> {
      const at = ctx.now();
      try {
        const r = await ctx.retrying(() =>
          ctx.db.send(
            new UpdateCommand({
              TableName: ctx.table,
              Key: metatileKey(runId, metatile.id),
              ...expression({
                set: [
                  assign({
                    state: 'CLAIMED',
                    owner,
                    leaseUntil: at + leaseMs,
                    leaseShard: leaseShardOf(metatile.id),
                    runId,
                    metatileId: metatile.id,
                    ...metatileFields(metatile),
                    updatedAt: new Date(at).toISOString(),
                  }),
                  countAttempt,
                ],
                condition: claimable(at),
              }),
              ReturnValues: 'UPDATED_NEW',
            }),
            abortOf(request),
          ),
        );
        return { outcome: 'claimed', attempts: Number(r.Attributes?.attempts ?? 1) };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const current = await getMetatile(runId, metatile.id, request);
        // The SDK retries a request whose response was lost (a timeout, a reset socket): its
        // first attempt may have landed, and the retry then fails the condition on our own
        // claim. The owner and the lease this call wrote tell it apart from anyone else's;
        // taken for 'held', the metatile would stay CLAIMED by a worker that is not working on it.
        if (current?.state === 'CLAIMED' && current.owner === owner && current.leaseUntil === at + leaseMs)
          return { outcome: 'claimed', attempts: current.attempts };
        const final = current ? OUTCOME_OF[current.state] : undefined;
        if (final) return { outcome: final };
        return { outcome: 'held', leaseUntil: current?.leaseUntil ?? at };
      }
    },

    async extendLease(runId, metatileId, owner, leaseMs, request) {
      try {
        await ctx.retrying(() =>
          ctx.db.send(
            new UpdateCommand({
              TableName: ctx.table,
              Key: metatileKey(runId, metatileId),
              ...expression({
                set: [assign({ leaseUntil: ctx.now() + leaseMs })],
                condition: ownClaim(owner),
              }),
            }),
            abortOf(request),
          ),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        throw new LeaseLostError(`lease on ${runId}/${metatileId} is no longer held by ${owner}`, {
          cause: error,
        });
      }
    },
  };
}
