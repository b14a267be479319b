import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { processTable } from '../../lib/process/process-table.js';

const FREEZER = '/sys/fs/cgroup/freezer';

export interface FrozenGroup {
  readonly pids: readonly number[];
  /** Lets the processes run again (a pending SIGKILL then takes them) and removes the cgroup. */
  thaw(): void;
}

/**
 * Freezes every live process of a process group in a cgroup-v1 freezer of its own. A frozen
 * process sits in uninterruptible sleep: SIGKILL stays pending and the process lives on,
 * which is what a tool stuck in the kernel (a hung NFS read, a dying disk) does.
 */
export function freezeGroup(pgid: number): FrozenGroup {
  const dir = `${FREEZER}/geohub-test-${pgid}`;
  mkdirSync(dir);
  const pids = processTable()
    .filter((p) => p.pgid === pgid && p.state !== 'Z')
    .map((p) => p.pid);
  for (const pid of pids) writeFileSync(`${dir}/cgroup.procs`, String(pid));
  writeFileSync(`${dir}/freezer.state`, 'FROZEN');
  let thawed = false;
  return {
    pids,
    thaw() {
      if (thawed) return;
      thawed = true;
      writeFileSync(`${dir}/freezer.state`, 'THAWED');
      // The cgroup can go once its processes have left it (they die or move back to the root).
      for (const pid of pids) {
        try {
          writeFileSync(`${FREEZER}/cgroup.procs`, String(pid));
        } catch {
          // already dead
        }
      }
      // A killed process leaves the cgroup a moment after it is thawed.
      const deadline = Date.now() + 5_000;
      for (;;) {
        try {
          rmdirSync(dir);
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EBUSY' || Date.now() > deadline) throw error;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        }
      }
    },
  };
}
