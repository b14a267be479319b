import type { Command } from 'commander';
import { createLogger } from '../../../lib/log/logger.js';
import { startLocalHub } from '../../hub/local-hub.js';
import { startApiServer } from '../../server/api-server.js';
import { createPage } from '../../server/page.js';
import { DEFAULT_PORT } from '../api-client.js';
import { type CliIo, emit, intOption } from '../io.js';

export function registerUp(program: Command, io: CliIo): void {
  program
    .command('up')
    .description('a long-running local stack with a restarting worker pool and the run-control page')
    .option('--port <p>', 'port of the API and the page on 127.0.0.1', intOption(0, 65_535), DEFAULT_PORT)
    .option('--workers <n>', 'worker processes (restarted when they exit, as ECS would)', intOption(1, 32), 2)
    .option('--json', 'print one JSON object on stdout once ready')
    .action(async (opts: { port: number; workers: number; json?: boolean }) => {
      const verbose = Boolean(program.opts().verbose);
      const log = createLogger({ component: 'geohub-up' });
      const hub = await startLocalHub({
        workers: opts.workers,
        log,
        onWorkerLog: verbose ? (line) => io.stderr.write(`${line}\n`) : undefined,
      });
      let api: Awaited<ReturnType<typeof startApiServer>> | undefined;
      const page = createPage(hub);
      try {
        api = await startApiServer(hub, opts.port, page.handle);
      } catch (error) {
        await page.close();
        await hub.stop();
        throw error;
      }
      emit(
        io,
        opts.json,
        {
          url: api.url,
          pid: process.pid,
          workers: hub.pool.pids(),
          stack: hub.stack.env,
          renderCache: page.cacheDir,
        },
        () =>
          [
            `geohub up: ${api.url} (run-control page and API), ${opts.workers} workers`,
            'Ctrl-C stops everything.',
          ].join('\n'),
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      io.stderr.write('geohub up: stopping (running executions are stopped, workers finish cleanly)…\n');
      await api.close();
      await page.close();
      await hub.stop();
    });
}
