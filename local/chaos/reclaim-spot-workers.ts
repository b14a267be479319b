import { type ChooseVictim, type KillSchedule, killLoop } from './kill-loop.js';

/** A worker on spot capacity that has a tool running (a reclaim that interrupts work) gets SIGTERM. */
const busySpotWorker: ChooseVictim = (live, rand) => {
  const busy = live.filter((w) => w.capacity === 'spot' && w.doing.msg === 'tool started');
  if (busy.length === 0) return undefined;
  return { pid: busy[Math.floor(rand() * busy.length)]!.pid, signal: 'SIGTERM' };
};

/**
 * Spot reclaims, as the spot → on-demand fallback's chaos, on the chaos schedule (kill-loop.ts).
 * On-demand capacity is never reclaimed.
 */
export const reclaimSpotWorkers = (...schedule: KillSchedule) => killLoop(busySpotWorker, ...schedule);
