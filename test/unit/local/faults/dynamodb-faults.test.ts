import { describe, expect, it } from 'vitest';
import { dynamodbFaults } from '../../../../local/faults/dynamodb-faults.js';
import { AWS_BASELINE } from '../../../../local/faults/fault-rates.js';

const request = (op: string, body: unknown) => ({
  method: 'POST',
  url: '/',
  headers: { 'x-amz-target': `DynamoDB_20120810.${op}` },
  body: Buffer.from(JSON.stringify(body)),
});
const put = (pk: string, extra: Record<string, unknown> = {}) =>
  request('PutItem', { TableName: 't', Item: { PK: { S: pk }, SK: { S: 'META' }, ...extra } });
const transaction = (...pks: string[]) =>
  request('TransactWriteItems', {
    TransactItems: pks.map((pk) => ({
      Update: { TableName: 't', Key: { PK: { S: pk }, SK: { S: 'META' } } },
    })),
  });

const decider = (rates = AWS_BASELINE.dynamodb, now = () => 0) =>
  dynamodbFaults({ rates, random: () => 0.99, keyNames: { t: ['PK', 'SK'] }, now });

describe('DynamoDB under concurrency', () => {
  it('a transaction meeting another in flight on a shared item is cancelled for that item only', () => {
    const decide = decider();
    const first = decide(transaction('a', 'b'));
    expect(first.inject).toBeUndefined();
    const second = decide(transaction('c', 'b'));
    expect(second.inject?.kind).toBe('TransactionConflict');
    expect(JSON.parse(second.inject!.body).CancellationReasons).toEqual([
      { Code: 'None' },
      { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
    ]);
    first.done?.();
    expect(decide(transaction('c', 'b')).inject).toBeUndefined();
  });

  it('a single write meeting a transaction gets TransactionConflictException; two plain writes do not conflict', () => {
    const decide = decider();
    const tx = decide(transaction('a'));
    expect(decide(put('a')).inject?.kind).toBe('TransactionConflictException');
    tx.done?.();
    const w = decide(put('a'));
    expect(w.inject).toBeUndefined();
    expect(decide(put('a')).inject).toBeUndefined();
    // …but a transaction meeting that write in flight is cancelled.
    expect(decide(transaction('a')).inject?.kind).toBe('TransactionConflict');
  });

  it('throttles an item past its per-second write rate, and not in the next second', () => {
    let t = 0;
    const decide = decider({ ...AWS_BASELINE.dynamodb, keyWritesPerSecond: 3 }, () => t);
    const kinds = Array.from({ length: 5 }, () => {
      const v = decide(put('hot'));
      v.done?.();
      return v.inject?.kind ?? 'ok';
    });
    expect(kinds.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
    expect(
      kinds
        .slice(3)
        .every((k) => k === 'ThrottlingException' || k === 'ProvisionedThroughputExceededException'),
    ).toBe(true);
    t = 1_000;
    expect(decide(put('hot')).inject).toBeUndefined();
    expect(decide(put('cold')).inject).toBeUndefined();
  });

  it('cancels every n-th transaction for TransactionConflict when told to, and no plain write', () => {
    const decide = decider({ ...AWS_BASELINE.dynamodb, conflictEvery: 3 });
    const kinds = Array.from({ length: 7 }, (_, i) => {
      const v = decide(transaction(`t${i}`));
      v.done?.();
      const w = decide(put(`p${i}`));
      w.done?.();
      expect(w.inject).toBeUndefined();
      return v.inject?.kind ?? 'ok';
    });
    expect(kinds).toEqual(['ok', 'ok', 'TransactionConflict', 'ok', 'ok', 'TransactionConflict', 'ok']);
  });
});
