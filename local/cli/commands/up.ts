import type { Command } from 'commander';
import { DEFAULT_MAX_UPLOAD_GB } from '../../server/upload-limit.js';
import { DEFAULT_PORT } from '../api-client.js';
import { type CliIo, intOption } from '../io.js';
import type { UpOptions } from '../serve-up.js';

export function registerUp(program: Command, io: CliIo): void {
  program
    .command('up')
    .description('a long-running local stack with a restarting worker pool and the run-control page')
    .option('--port <p>', 'port of the API and the page on 127.0.0.1', intOption(0, 65_535), DEFAULT_PORT)
    .option('--workers <n>', 'worker processes (restarted when they exit, as ECS would)', intOption(1, 32), 2)
    .option(
      '--max-upload-gb <n>',
      'the largest file geohub submit may send, in GB (a larger one is refused with 413 before it is read)',
      intOption(1, 1024),
      DEFAULT_MAX_UPLOAD_GB,
    )
    .option('--json', 'print one JSON object on stdout once ready')
    // Its code (the hub, the API server, the page) loads only for this command.
    .action(async (opts: UpOptions) => (await import('../serve-up.js')).serveUp(opts, io, program.opts()));
}
