import type { WorkerPool } from '../pool/worker-pool.js';
import type { KillCounts } from './kill-workers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Spot reclaims, as the spot → on-demand fallback's chaos: until the run ends or the deadline
 * passes, after a pause drawn in [min, max] ms, SIGTERM to a random worker on spot capacity that
 * has a tool running (a reclaim that interrupts work). On-demand capacity is never reclaimed.
 */
export async function reclaimSpotWorkers(
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
    const busy = pool.activity().filter((w) => w.capacity === 'spot' && w.doing.msg === 'tool started');
    if (busy.length === 0) continue;
    try {
      process.kill(busy[Math.floor(rand() * busy.length)]!.pid, 'SIGTERM');
      kills.sigterm += 1;
    } catch {
      // it exited on its own a moment ago
    }
  }
  return kills;
}
