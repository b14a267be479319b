import type { ExecutionStatusEvent } from './local-executions.js';

export interface EventDeliveryRates {
  /** Probability that an event is never delivered. */
  readonly lost: number;
  /** Probability that an event is delivered late: after a uniform random delay in [0, lateMs]. */
  readonly late: number;
  readonly lateMs: number;
}

export interface EventDelivery {
  readonly deliver: (event: ExecutionStatusEvent) => Promise<void>;
  /** Drops the events still waiting to be delivered late (the stack is stopping). */
  close(): void;
}

/**
 * EventBridge's delivery of execution-status events to the rule's target, best-effort as AWS
 * documents it: an event may come late, or not at all. A late one is delivered on its own
 * time, not before the execution counts as ended, so nothing may wait for it. The ledger must
 * reach the run's end without it (lib/coordination/reconcile-executions.ts).
 */
export function bestEffortDelivery(
  target: (event: ExecutionStatusEvent) => Promise<void>,
  rates: EventDeliveryRates,
  random: () => number,
  onFault: (kind: 'EventLost' | 'EventLate') => void = () => {},
): EventDelivery {
  const timers = new Set<NodeJS.Timeout>();
  return {
    async deliver(event) {
      if (random() < rates.lost) {
        onFault('EventLost');
        return;
      }
      if (random() < rates.late) {
        onFault('EventLate');
        const timer = setTimeout(() => {
          timers.delete(timer);
          void target(event).catch(() => {});
        }, random() * rates.lateMs);
        timers.add(timer);
        return;
      }
      await target(event);
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
