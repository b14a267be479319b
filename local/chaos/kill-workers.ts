import type { WorkerPool } from '../pool/worker-pool.js';

export interface KillCounts {
  sigkill: number;
  sigterm: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Until `ended` resolves, the deadline passes or `maxKills` were dealt: after a pause drawn in
 * [min, max] ms, a random live worker gets SIGKILL or SIGTERM (even odds). The same random
 * stream replays the schedule.
 */
export async function killWorkers(
  pool: WorkerPool,
  ended: Promise<unknown>,
  isEnded: () => boolean,
  every: readonly [number, number],
  rand: () => number,
  deadline: number,
  maxKills = Number.POSITIVE_INFINITY,
): Promise<KillCounts> {
  const kills: KillCounts = { sigkill: 0, sigterm: 0 };
  while (!isEnded() && Date.now() < deadline && kills.sigkill + kills.sigterm < maxKills) {
    const [min, max] = every;
    await Promise.race([ended, sleep(min + rand() * (max - min))]);
    if (isEnded()) break;
    const live = pool.activity();
    if (live.length === 0) continue;
    const victim = live[Math.floor(rand() * live.length)]!;
    const signal = rand() < 0.5 ? 'SIGKILL' : 'SIGTERM';
    try {
      process.kill(victim.pid, signal);
      if (signal === 'SIGKILL') kills.sigkill += 1;
      else kills.sigterm += 1;
    } catch {
      // it exited on its own a moment ago
    }
  }
  return kills;
}
