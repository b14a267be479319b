import { startApiServer } from '../server/api-server.js';
import { tokenGate } from '../server/auth.js';
import { createPage } from '../server/page/create-page.js';
import { newUpSecret } from '../server/up-token.js';
import { EXIT_CANCELLED } from './cli-error.js';
import { type CliIo, emit } from './io.js';
import { discoverStage, type StageOptions } from './stage/discover-stage.js';
import { stageRunControl } from './stage/stage-run-control.js';
import { stageServices } from './stage/stage-services.js';
import { stopSignals } from './stop-signals.js';

export interface ConsoleOptions extends StageOptions {
  readonly port: number;
  readonly json?: boolean;
}

/**
 * `geohub console --stage <name>`: the run-control page for a deployed stage, served on loopback
 * from the operator's machine and reading AWS with the operator's credentials; the same login
 * and loopback rules as `geohub up` (local/server/auth.ts), until Ctrl-C.
 */
export async function serveConsole(opts: ConsoleOptions, io: CliIo): Promise<void> {
  const signals = stopSignals();
  const services = await discoverStage(opts, io.env)
    .then(stageServices)
    .catch((error: unknown) => {
      signals.dispose();
      throw error;
    });
  const control = stageRunControl(services);
  // The CLI's token is never written anywhere: nothing but the page talks to a console.
  const secrets = { token: newUpSecret(), session: newUpSecret() };
  const page = createPage(control);
  let api: Awaited<ReturnType<typeof startApiServer>> | undefined;
  try {
    api = await startApiServer(control, opts.port, page.handle, (port) => tokenGate(secrets, port));
    const pageUrl = `${api.url}/?login=${secrets.session}`;
    emit(
      io,
      opts.json,
      {
        url: api.url,
        pageUrl,
        stage: services.target.stage,
        region: services.target.region,
        pid: process.pid,
      },
      () =>
        [
          `geohub console: stage ${services.target.stage} in ${services.target.region} at ${api!.url}`,
          `open the page (this URL logs you in once): ${pageUrl}`,
          'Ctrl-C stops it.',
        ].join('\n'),
    );
    await signals.until();
  } finally {
    await api?.close();
    await page.close();
    services.close();
    signals.dispose();
  }
  io.exitCode = signals.signalled() === 'SIGINT' ? EXIT_CANCELLED : 0;
}
