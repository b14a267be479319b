import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { LedgerContext } from './context.js';

/** Every item a Query matches, page after page, each page with the bounded retry. */
export async function* queryItems(
  ctx: LedgerContext,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): AsyncGenerator<Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const from = start;
    const r = await ctx.retrying(() =>
      ctx.db.send(new QueryCommand({ ...input, TableName: ctx.table, ExclusiveStartKey: from })),
    );
    yield* r.Items ?? [];
    start = r.LastEvaluatedKey;
  } while (start);
}
