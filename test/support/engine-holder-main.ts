// Holds a metatile engine as a worker does: runs one request on it (the spec is argv[2]), prints
// the engine's PID as one JSON line once it is waiting for the next, then waits to be killed.
import { createEnginePool } from '../../lib/process/engine-pool.js';
import { DEFAULT_GDAL_PYTHON, metatileCommand } from '../../worker/metatile-command.js';

const engine = metatileCommand(DEFAULT_GDAL_PYTHON);
const pool = createEnginePool();
let pid = 0;
await pool.run({ ...engine, env: { ...process.env }, cwd: process.cwd() }, process.argv[2]!, {
  timeoutMs: 60_000,
  graceMs: 1_000,
  onSpawn: (p) => {
    pid = p;
  },
});
process.stdout.write(`${JSON.stringify({ engine: pid })}\n`);
setInterval(() => {}, 60_000);
