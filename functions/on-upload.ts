import middy from '@middy/core';
import type { ExecutionStarter } from '../lib/executions/execution-starter.js';
import { uploadsOf } from '../lib/trigger/s3-event.js';
import { type StartRunOutcome, startRunForUpload } from '../lib/trigger/start-run-for-upload.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/** S3 ObjectCreated on incoming/ → one execution per object version (a duplicate event is a no-op). */
export const onUploadTask =
  (
    deps: Pick<FunctionDeps, 'ledger' | 'store'> &
      Partial<Pick<FunctionDeps, 'chain'>> & { starter: ExecutionStarter },
  ) =>
  async (event: unknown): Promise<StartRunOutcome[]> => {
    const outcomes: StartRunOutcome[] = [];
    for (const upload of uploadsOf(event)) outcomes.push(await startRunForUpload(deps, upload));
    return outcomes;
  };

export const handler = middy<unknown, StartRunOutcome[]>().handler((event) => {
  const deps = functionDeps();
  return onUploadTask({ ...deps, starter: deps.starter() })(event);
});
