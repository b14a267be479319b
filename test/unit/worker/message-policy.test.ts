import { describe, expect, it } from 'vitest';
import { LeaseLostError, LedgerBusyError } from '../../../lib/ledger/errors.js';
import { ProcessGroupSurvivedError } from '../../../lib/process/errors.js';
import {
  DeadlineExceededError,
  InterruptedError,
  RunStoppedError,
  TileDataError,
  TileRetryableError,
} from '../../../worker/errors.js';
import { failurePolicy } from '../../../worker/message-policy.js';

const e = (cls: string) => ({ class: cls, message: expect.any(String) });

describe('failurePolicy: an attempt’s error → (release, disposition, log)', () => {
  it.each([
    [
      new TileDataError('bad block'),
      { markFailed: true, release: undefined, disposition: 'delete', fatal: false },
    ],
    [
      new InterruptedError('SIGTERM'),
      {
        markFailed: false,
        release: { state: 'QUEUED', error: e('InterruptedError'), interrupted: true },
        disposition: 'requeue',
      },
    ],
    [
      new RunStoppedError('r-1', 'CANCELLED', 'operator'),
      { release: { state: 'CANCELLED', error: e('RunStoppedError') }, disposition: 'delete' },
    ],
    [
      new RunStoppedError('r-1', 'DRAINING', 'breaker'),
      { release: { state: 'PARKED', error: e('RunStoppedError') }, disposition: 'delete' },
    ],
    [
      new DeadlineExceededError('budget'),
      { release: { state: 'PARKED', error: e('DeadlineExceededError') }, disposition: 'delete' },
    ],
    [
      new LeaseLostError('gone'),
      { markFailed: false, release: undefined, disposition: 'retry', fatal: false },
    ],
    [
      new ProcessGroupSurvivedError('group 42 survived SIGKILL'),
      { markFailed: false, release: undefined, disposition: 'leave', level: 'error', fatal: true },
    ],
    // A busy ledger is not the metatile's fault: no error recorded, so nothing feeds the breaker.
    [new LedgerBusyError('busy'), { release: { state: 'QUEUED' }, disposition: 'requeue', fatal: false }],
    [
      new TileRetryableError('socket hang up'),
      { release: { state: 'QUEUED', error: e('TileRetryableError') }, disposition: 'retry', fatal: false },
    ],
    [new Error('unexpected'), { release: { state: 'QUEUED', error: e('Error') }, disposition: 'retry' }],
    ['a string', { release: { state: 'QUEUED', error: e('UnknownError') }, disposition: 'retry' }],
  ])('%s', (error, expected) => {
    const policy = failurePolicy(error);
    expect(policy).toMatchObject(expected);
    expect(policy.log.length).toBeGreaterThan(0);
  });
});
