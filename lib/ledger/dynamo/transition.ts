import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { abortOf } from '../../aws/abort-of.js';
import type { CounterField } from '../items.js';
import { counterKey, metatileKey } from '../keys.js';
import type { LedgerRequest } from '../ledger.js';
import type { LedgerContext } from './context.js';
import { increment, type UpdateSpec, updateExpression } from './expression.js';

export type Counts = Partial<Record<CounterField, number>>;

/**
 * The one way a metatile changes state: its item's update and, when the change is counted, the
 * count on the metatile's counter shard, all or nothing. The transaction carries one client
 * token across retries, so a retry after an ambiguous 5xx cannot apply it twice.
 */
export async function transition(
  ctx: LedgerContext,
  runId: string,
  metatileId: string,
  spec: UpdateSpec,
  counts: Counts = {},
  /** The change records finished work (a marker, a failure): it is retried longer (context.ts). */
  afterWork = false,
  request?: LedgerRequest,
): Promise<void> {
  const retrying = afterWork ? ctx.retryingAfterWork : ctx.retrying;
  const counted = Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0 && n !== undefined));
  const update = { TableName: ctx.table, Key: metatileKey(runId, metatileId), ...updateExpression(spec) };
  if (Object.keys(counted).length === 0) {
    await retrying(() => ctx.db.send(new UpdateCommand(update), abortOf(request)));
    return;
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
}
