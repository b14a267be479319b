import { type ChooseVictim, type KillSchedule, killLoop } from './kill-loop.js';

export type { KillCounts } from './kill-loop.js';

/** A random live worker, SIGKILL or SIGTERM at even odds. */
const anyWorker: ChooseVictim = (live, rand) => {
  if (live.length === 0) return undefined;
  const victim = live[Math.floor(rand() * live.length)]!;
  return { pid: victim.pid, signal: rand() < 0.5 ? 'SIGKILL' : 'SIGTERM' };
};

/** Kills random workers on the chaos schedule (kill-loop.ts). */
export const killWorkers = (...schedule: KillSchedule) => killLoop(anyWorker, ...schedule);
