import { basename } from 'node:path';
import type { RedriveReport } from '../../../lib/coordination/redrive.js';
import { readUpToken } from '../../server/up-token.js';
import { callApi, upSession } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { uploadToUp } from '../upload-to-up.js';
import type { Operator, QueueDepths, RunView, SubmitResult, VerifyView } from './operator.js';

/** The user's own running `geohub up` on `port`, through its API (local/server/api-server.ts). */
export function upOperator(port: number, env: NodeJS.ProcessEnv): Operator {
  const run = (runId: string) => `/api/runs/${encodeURIComponent(runId)}`;
  return {
    where: `geohub up on 127.0.0.1:${port}`,
    submit: (input, options) =>
      uploadToUp<SubmitResult>(
        port,
        `/api/uploads?${new URLSearchParams({
          name: basename(input.path),
          ...(options.zoom === undefined ? {} : { zoom: String(options.zoom) }),
        })}`,
        input,
        { env, onSent: options.onSent, onStored: options.onStored, signal: options.signal },
      ),
    runs: () => callApi<RunView[]>(port, 'GET', '/api/runs'),
    queues: () => callApi<QueueDepths>(port, 'GET', '/api/queues'),
    run: (runId, waitMs) => callApi<RunView>(port, 'GET', `${run(runId)}${waitMs ? `?wait=${waitMs}` : ''}`),
    cancel: (runId) => callApi<RunView>(port, 'POST', `${run(runId)}/cancel`),
    redrive: (runId) => callApi<RedriveReport>(port, 'POST', '/api/redrive', runId ? { runId } : {}),
    verify: (runId) => callApi<VerifyView>(port, 'GET', `${run(runId)}/verify`),
    async copyOutputs(runId, out, resume) {
      // The file that holds the operator's key is read once the server proved it is the user's up.
      await upSession(port, env);
      const operator = (await readUpToken(port, env))?.operator;
      if (!operator) throw new CliError(`the geohub up on 127.0.0.1:${port} gives no operator key`);
      // The mirror is `geohub run`'s, removed once copied: a download reads the bucket. The SDK
      // clients load here, not with every command (test/e2e/cli-start-modules.test.ts).
      const { copyFromUp } = await import('../copy-from-up.js');
      return copyFromUp(operator, runId, out, { resume });
    },
    close() {},
  };
}
