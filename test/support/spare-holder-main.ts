// Holds a warm spare of the real metatile engine as a worker does, prints the PIDs of the engine it
// took (given no input) and of the spare started with it as one JSON line, then waits to be killed.
import { processTable } from '../../lib/process/process-table.js';
import { createWarmSpares } from '../../lib/process/warm-spares.js';
import { DEFAULT_GDAL_PYTHON, metatileCommand } from '../../worker/metatile-command.js';

const engine = metatileCommand(DEFAULT_GDAL_PYTHON);
const spares = createWarmSpares();
const taken = spares.take({ ...engine, env: { ...process.env }, cwd: process.cwd() });
// Right after the fork a child still shows this process's command line: wait for both to exec.
const engines = () =>
  processTable()
    .filter((p) => p.ppid === process.pid && p.state !== 'Z' && p.args.includes('warp-metatile.py'))
    .map((p) => p.pid);
const until = Date.now() + 10_000;
while (engines().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
process.stdout.write(`${JSON.stringify({ taken: taken.pgid, engines: engines() })}\n`);
setInterval(() => {}, 60_000);
