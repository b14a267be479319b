import type { Command } from 'commander';
import { DEFAULT_PORT } from '../api-client.js';
import { type CliIo, intOption } from '../io.js';

export interface UpOptions {
  readonly port: number;
  readonly workers: number;
  readonly json?: boolean;
}

export function registerUp(program: Command, io: CliIo): void {
  program
    .command('up')
    .description('a long-running local stack with a restarting worker pool and the run-control page')
    .option('--port <p>', 'port of the API and the page on 127.0.0.1', intOption(0, 65_535), DEFAULT_PORT)
    .option('--workers <n>', 'worker processes (restarted when they exit, as ECS would)', intOption(1, 32), 2)
    .option('--json', 'print one JSON object on stdout once ready')
    // Its code (the hub, the API server, the page) loads only for this command.
    .action(async (opts: UpOptions) => (await import('../serve-up.js')).serveUp(opts, io, program.opts()));
}
