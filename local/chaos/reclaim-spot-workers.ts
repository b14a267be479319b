import { type ChooseVictim, type KillSchedule, killLoop } from './kill-loop.js';

/**
 * Whether a worker's last log line says it holds a metatile: claimed, reading its source or
 * running its tool, and not yet done. Not the tool alone: on a quick machine the tool is a tenth
 * of a metatile's time, and reclaims aimed at it alone came too rarely for the rate they test
 * (4 in a 30 s run: the fallback never saw its break-even rate).
 */
export const holdsMetatile = (msg: string) =>
  msg.startsWith('metatile claimed') || msg === 'source access chosen' || msg === 'tool started';

/** A worker on spot capacity that holds a metatile (a reclaim that interrupts work) gets SIGTERM. */
const busySpotWorker: ChooseVictim = (live, rand) => {
  const busy = live.filter((w) => w.capacity === 'spot' && holdsMetatile(w.doing.msg));
  if (busy.length === 0) return undefined;
  return { pid: busy[Math.floor(rand() * busy.length)]!.pid, signal: 'SIGTERM' };
};

/**
 * Spot reclaims, as the spot → on-demand fallback's chaos, on the chaos schedule (kill-loop.ts).
 * On-demand capacity is never reclaimed.
 */
export const reclaimSpotWorkers = (...schedule: KillSchedule) => killLoop(busySpotWorker, ...schedule);
