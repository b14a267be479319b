import { isExpiredClaim, type MetatileRecord } from '../lib/model/run.js';
import type { ReceivedMessage } from '../lib/queue/work-queue.js';

/** Past this many claims a metatile's crashes count against the budget: a message that kills its worker every time must still reach the DLQ. */
export const CRASH_RESET_LIMIT = 10;

/**
 * A redelivery whose last worker died holding the claim (SIGKILL, a vanished instance): an
 * interruption, not a failure, so the message must not spend its receive budget on it.
 */
export function redeliveredAfterCrash(
  message: ReceivedMessage,
  record: MetatileRecord | undefined,
  now: number,
): boolean {
  if (message.receiveCount < 2 || !record) return false;
  const crashed = isExpiredClaim(record, now);
  const failed = record.lastError !== undefined && record.lastError.class !== 'InterruptedError';
  return crashed && !failed && record.attempts < CRASH_RESET_LIMIT;
}
