const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const cleanups = new Set<() => void>();
let listening = false;

function stop(signal: NodeJS.Signals): void {
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // the others still run
    }
  }
  for (const s of SIGNALS) process.removeListener(s, stop);
  // Ended by the signal, as it would have been: a shell, a CI runner see the same status.
  process.kill(process.pid, signal);
}

/**
 * `cleanup` runs, synchronously, if the bench is stopped by a signal sent to it alone (a CI
 * timeout's SIGTERM, `kill <pid>`), which ends a process without its `finally` blocks: what it
 * started outside its process group (`geohub up`'s daemon) or outside its memory (its scratch
 * directory) would outlive it. Returns the unregistering function.
 */
export function onSignalStop(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  if (!listening) {
    listening = true;
    for (const s of SIGNALS) process.on(s, stop);
  }
  return () => cleanups.delete(cleanup);
}
