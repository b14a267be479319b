import {
  type CancellationCode,
  dynamodbInternalError,
  dynamodbThrottled,
  transactionCanceled,
  transactionConflict,
} from './aws-error-shapes.js';
import { type FaultDecider, PASS, type RequestInfo, type Verdict } from './fault-decider.js';
import type { FaultRates } from './fault-rates.js';

type Item = Record<string, unknown>;
interface Touch {
  readonly id: string;
  readonly write: boolean;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);
const DATA_PLANE = new Set([
  ...WRITES,
  'GetItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'TransactGetItems',
]);

export interface DynamoFaultOptions {
  readonly rates: FaultRates['dynamodb'];
  readonly random: () => number;
  /** Key attribute names by table, to tell which item a Put's full item is. */
  readonly keyNames: Readonly<Record<string, readonly string[]>>;
  readonly now?: () => number;
}

/**
 * DynamoDB as it behaves under concurrency, in front of DynamoDB Local (which serialises
 * everything): a transaction that meets another request in flight on one of its items is
 * cancelled with `TransactionConflict`; a single-item write that meets a transaction gets
 * `TransactionConflictException`; an item written or read past its partition's rate is
 * throttled; and random conflicts, throttles and 500s come at the configured rates.
 */
export function dynamodbFaults(options: DynamoFaultOptions): FaultDecider {
  const { rates, random } = options;
  const now = options.now ?? Date.now;
  // Writes and transactions in flight per item: how many, and how many are transactions.
  const inFlight = new Map<string, { all: number; transactions: number }>();
  const perSecond = new Map<string, { second: number; reads: number; writes: number }>();
  let transactWrites = 0;

  const idOf = (table: string, item: Item | undefined): string => {
    const names = options.keyNames[table] ?? Object.keys(item ?? {}).sort();
    return `${table}|${JSON.stringify(names.map((n) => item?.[n]))}`;
  };

  const touches = (op: string, body: Record<string, unknown>): Touch[] => {
    const table = String(body.TableName ?? '');
    if (WRITES.has(op)) return [{ id: idOf(table, (body.Key ?? body.Item) as Item), write: true }];
    if (op === 'GetItem') return [{ id: idOf(table, body.Key as Item), write: false }];
    if (op === 'TransactWriteItems' || op === 'TransactGetItems') {
      return (
        (body.TransactItems ?? []) as Record<string, { TableName?: string; Key?: Item; Item?: Item }>[]
      ).map((entry) => {
        const [kind, action] = Object.entries(entry)[0] ?? ['Get', {}];
        return {
          id: idOf(String(action.TableName ?? ''), action.Key ?? action.Item),
          write: kind !== 'Get' && kind !== 'ConditionCheck',
        };
      });
    }
    return [];
  };

  const overRate = (t: Touch): boolean => {
    const second = Math.floor(now() / 1000);
    let window = perSecond.get(t.id);
    if (!window || window.second !== second) {
      window = { second, reads: 0, writes: 0 };
      perSecond.set(t.id, window);
      if (perSecond.size > 100_000) perSecond.clear(); // bounded memory over a long run
    }
    if (t.write) window.writes += 1;
    else window.reads += 1;
    return t.write ? window.writes > rates.keyWritesPerSecond : window.reads > rates.keyReadsPerSecond;
  };

  const track = (items: readonly Touch[], transaction: boolean): Verdict => {
    for (const t of items) {
      const entry = inFlight.get(t.id) ?? { all: 0, transactions: 0 };
      entry.all += 1;
      if (transaction) entry.transactions += 1;
      inFlight.set(t.id, entry);
    }
    let released = false;
    return {
      done: () => {
        if (released) return;
        released = true;
        for (const t of items) {
          const entry = inFlight.get(t.id);
          if (!entry) continue;
          entry.all -= 1;
          if (transaction) entry.transactions -= 1;
          if (entry.all <= 0) inFlight.delete(t.id);
        }
      },
    };
  };

  return (request: RequestInfo): Verdict => {
    const target = String(request.headers['x-amz-target'] ?? '');
    const op = target.split('.')[1] ?? '';
    if (!DATA_PLANE.has(op)) return PASS;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return PASS; // let DynamoDB Local say what is wrong with it
    }
    const items = touches(op, body);
    const transaction = op.startsWith('Transact');

    if (random() < rates.serverError) return { inject: dynamodbInternalError() };

    const hot = items.map(overRate);
    const throttled = hot.some(Boolean) || random() < rates.throttle;
    if (throttled) {
      if (!transaction) return { inject: dynamodbThrottled(random() < 0.5) };
      const at = hot.some(Boolean) ? hot.indexOf(true) : Math.floor(random() * items.length);
      return { inject: transactionCanceled(items.map((_, i) => (i === at ? 'ThrottlingError' : 'None'))) };
    }

    if (transaction) {
      // Two transactions conflict on any shared item; a transaction and a write likewise.
      const busy = items.map((t) => inFlight.has(t.id));
      if (op === 'TransactWriteItems') transactWrites += 1;
      const scheduled =
        rates.conflictEvery > 0 && op === 'TransactWriteItems' && transactWrites % rates.conflictEvery === 0;
      if (
        !busy.some(Boolean) &&
        op === 'TransactWriteItems' &&
        (scheduled || random() < rates.conflict) &&
        items.length > 0
      )
        busy[Math.floor(random() * items.length)] = true;
      if (busy.some(Boolean)) {
        const codes: CancellationCode[] = busy.map((b) => (b ? 'TransactionConflict' : 'None'));
        return { inject: transactionCanceled(codes) };
      }
    } else if (WRITES.has(op) && items.some((t) => (inFlight.get(t.id)?.transactions ?? 0) > 0)) {
      return { inject: transactionConflict() };
    }
    return track(
      items.filter((t) => transaction || t.write),
      transaction,
    );
  };
}
