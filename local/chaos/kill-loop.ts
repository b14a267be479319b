import type { WorkerActivity, WorkerPool } from '../pool/worker-pool.js';

export interface KillCounts {
  sigkill: number;
  sigterm: number;
}

/** Which worker gets which signal, from the pool's live workers; undefined: none this time. */
export type ChooseVictim = (
  live: readonly WorkerActivity[],
  rand: () => number,
) => { pid: number; signal: 'SIGKILL' | 'SIGTERM' } | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The chaos schedule: until `ended` resolves, the deadline passes or `maxKills` were dealt, after
 * a pause drawn in [min, max] ms, the chosen worker gets the chosen signal. The same random
 * stream replays the schedule.
 */
export async function killLoop(
  choose: ChooseVictim,
  pool: WorkerPool,
  ended: Promise<unknown>,
  isEnded: () => boolean,
  every: readonly [number, number],
  rand: () => number,
  deadline: number,
  maxKills = Number.POSITIVE_INFINITY,
  onKill?: (signal: 'SIGKILL' | 'SIGTERM') => void,
): Promise<KillCounts> {
  const kills: KillCounts = { sigkill: 0, sigterm: 0 };
  while (!isEnded() && Date.now() < deadline && kills.sigkill + kills.sigterm < maxKills) {
    const [min, max] = every;
    await Promise.race([ended, sleep(min + rand() * (max - min))]);
    if (isEnded()) break;
    const victim = choose(pool.activity(), rand);
    if (!victim) continue;
    try {
      process.kill(victim.pid, victim.signal);
      if (victim.signal === 'SIGKILL') kills.sigkill += 1;
      else kills.sigterm += 1;
      onKill?.(victim.signal);
    } catch {
      // it exited on its own a moment ago
    }
  }
  return kills;
}

/** killLoop's arguments after the chooser: the schedule a chaos function takes. */
export type KillSchedule = Parameters<typeof killLoop> extends [ChooseVictim, ...infer R] ? R : never;
