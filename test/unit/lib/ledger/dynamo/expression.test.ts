import { describe, expect, it } from 'vitest';
import { guardCondition, ownClaim } from '../../../../../lib/ledger/dynamo/conditions.js';
import {
  assign,
  expression,
  increment,
  removal,
  updateExpression,
} from '../../../../../lib/ledger/dynamo/expression.js';

describe('expressions from named parts', () => {
  it('a claim reads as its parts, with every name and value it uses and no other', () => {
    const e = updateExpression({
      set: [assign({ state: 'CLAIMED', owner: 'w1' })],
      condition: guardCondition({ absent: true, states: ['QUEUED'], expiredBefore: 42 }),
    });
    expect(e.UpdateExpression).toBe('SET #state = :state, #owner = :owner');
    expect(e.ConditionExpression).toBe(
      '(attribute_not_exists(PK)) OR (#state = :is_QUEUED) OR ((#state = :is_CLAIMED) AND (#leaseUntil < :now))',
    );
    expect(e.ExpressionAttributeNames).toEqual({
      '#state': 'state',
      '#owner': 'owner',
      '#leaseUntil': 'leaseUntil',
    });
    expect(e.ExpressionAttributeValues).toEqual({
      ':state': 'CLAIMED',
      ':owner': 'w1',
      ':is_QUEUED': 'QUEUED',
      ':is_CLAIMED': 'CLAIMED',
      ':now': 42,
    });
  });

  it('SET, ADD and REMOVE in one update; undefined values are left out', () => {
    const e = expression({
      set: [assign({ state: 'QUEUED', lastError: undefined })],
      add: [increment({ interruptions: 1 })],
      remove: [removal(['owner', 'leaseUntil'])],
      condition: ownClaim('w1'),
    });
    expect(e.UpdateExpression).toBe(
      'SET #state = :state ADD #interruptions :add_interruptions REMOVE #owner, #leaseUntil',
    );
    expect(e.ExpressionAttributeValues).not.toHaveProperty(':lastError');
  });

  it('one placeholder bound to two values is refused, not silently overwritten', () => {
    expect(() =>
      expression({
        set: [assign({ owner: 'a' })],
        condition: { text: '#owner = :owner', values: { ':owner': 'b' } },
      }),
    ).toThrow(/:owner bound to two values/);
  });

  it('a guard without a clause is refused: it would be an unconditional write', () => {
    expect(() => guardCondition({})).toThrow(/at least one clause/);
  });

  it('an update without a clause is refused', () => {
    expect(() => updateExpression({ condition: ownClaim('w1') })).toThrow(/at least one SET, ADD or REMOVE/);
  });
});
