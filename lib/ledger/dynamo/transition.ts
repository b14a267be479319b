import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { abortOf } from '../../aws/abort-of.js';
import { counterKey, metatileKey } from '../keys.js';
import type { LedgerRequest } from '../ledger.js';
import type { Applied } from '../metatiles/store.js';
import { LEASE_FIELDS, type Transition } from '../metatiles/transitions.js';
import { isConditionFailure } from './classify-error.js';
import { guardCondition } from './conditions.js';
import type { LedgerContext } from './context.js';
import { assign, increment, removal, type UpdateSpec, updateExpression } from './expression.js';

const LEASE_REMOVAL = removal([...LEASE_FIELDS]);

/** A row of the metatile table (metatiles/transitions.ts) as an UpdateItem's expressions. */
function specOf(t: Transition): UpdateSpec {
  return {
    set: [assign(t.set)],
    add: Object.keys(t.add).length > 0 ? [increment(t.add)] : [],
    remove: t.dropLease ? [LEASE_REMOVAL] : [],
    condition: guardCondition(t.guard),
  };
}

/**
 * Executes a metatile transition: its item's update and, when the change is counted, the count
 * on the metatile's counter shard, all or nothing. A counted change is a transaction that carries
 * one client token across retries, so a retry after an ambiguous 5xx cannot apply it twice.
 * Undefined when the guard did not hold.
 */
export async function applyTransition(
  ctx: LedgerContext,
  runId: string,
  metatileId: string,
  t: Transition,
  request?: LedgerRequest,
): Promise<Applied | undefined> {
  const retrying = t.afterWork ? ctx.retryingAfterWork : ctx.retrying;
  const counted = Object.fromEntries(Object.entries(t.counts).filter(([, n]) => n !== 0 && n !== undefined));
  const update = {
    TableName: ctx.table,
    Key: metatileKey(runId, metatileId),
    ...updateExpression(specOf(t)),
  };
  try {
    if (Object.keys(counted).length === 0) {
      const r = await retrying(() =>
        ctx.db.send(new UpdateCommand({ ...update, ReturnValues: 'UPDATED_NEW' }), abortOf(request)),
      );
      const attempts = r.Attributes?.attempts;
      return attempts === undefined ? {} : { attempts: Number(attempts) };
    }
    const command = new TransactWriteCommand({
      ClientRequestToken: randomUUID(),
      TransactItems: [
        { Update: update },
        {
          Update: {
            TableName: ctx.table,
            Key: counterKey(runId, metatileId),
            ...updateExpression({ add: [increment(counted as Record<string, number>)] }),
          },
        },
      ],
    });
    await retrying(() => ctx.db.send(command, abortOf(request)));
    return {};
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
