import type { EmulatorSet } from './emulator-set.js';
import { withVersionId } from './versioned-events.js';

export interface S3EventRelay {
  /** Whether the bucket is versioned: each record then carries its object's version id. */
  versioned(on: boolean): void;
  /** The stack has started: from now on a record nobody listens to is not kept. */
  started(): void;
  listen(listener: (record: unknown) => void): void;
}

/**
 * s3rver's event records, delivered as S3's notifications. A record that comes while the stack
 * is still starting (an upload that begins once the bucket is made, before the hub's trigger is
 * wired) is kept for the first listener: S3 may deliver a notification late, never not at all.
 */
export function s3EventRelay(set: Pick<EmulatorSet, 'onMessage'>): S3EventRelay {
  const listeners: ((record: unknown) => void)[] = [];
  let waiting: unknown[] = [];
  let starting = true;
  let versioned = false;
  set.onMessage((message) => {
    if (message.type !== 's3-event') return;
    const record = versioned ? withVersionId(message.record) : message.record;
    if (listeners.length === 0 && starting) waiting.push(record);
    for (const listener of listeners) listener(record);
  });
  return {
    versioned: (on) => {
      versioned = on;
    },
    started: () => {
      starting = false;
    },
    listen(listener) {
      listeners.push(listener);
      const kept = waiting;
      waiting = [];
      for (const record of kept) listener(record);
    },
  };
}
