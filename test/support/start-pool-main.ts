// Starts a worker pool against the stack whose environment is given in GEOHUB_* variables,
// prints the worker PIDs as one JSON line, then waits to be killed.
import { startWorkerPool } from '../../local/pool/worker-pool.js';

const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => k.startsWith('GEOHUB_')),
) as Record<string, string>;
const pool = startWorkerPool({ size: 2, env });
setTimeout(() => process.stdout.write(`${JSON.stringify({ pids: pool.pids() })}\n`), 1_500);
setInterval(() => {}, 60_000);
