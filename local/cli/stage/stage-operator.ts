import { setTimeout as sleep } from 'node:timers/promises';
import { countClaims } from '../../../lib/ledger/tile-records.js';
import { ENDED_RUN_STATUSES, type RunRecord } from '../../../lib/model/run.js';
import { verifyRun } from '../../../lib/verify/verify-run.js';
import { runView } from '../../server/run-view.js';
import { CliError } from '../cli-error.js';
import { copyRunOutputs } from '../copy-outputs.js';
import type { Operator, RunView, SubmitOptions } from '../operator/operator.js';
import { stageError } from './stage-errors.js';
import { describedOnceEnded } from './stage-run-control.js';
import type { StageServices } from './stage-services.js';
import { submitToStage } from './submit-to-stage.js';

/** How long `cancel` waits for the run to be recorded CANCELLED (EventBridge, then on-execution-status). */
const CANCEL_RECORDED_MS = 120_000;
const POLL_MS = 500;

/** The Step Functions console's page of one execution. */
export const consoleLink = (region: string, executionArn: string) =>
  `https://${region}.console.aws.amazon.com/states/home?region=${region}#/v2/executions/details/${executionArn}`;

/**
 * A deployed stage, reached directly with the operator's own credentials: the ledger and the
 * bucket through the same adapters the functions use, Step Functions and the redrive function
 * through theirs. Every AWS failure becomes one line naming what is missing (stage-errors.ts).
 */
export function stageOperator(services: StageServices, now = Date.now): Operator {
  const { target, aws, executions } = services;
  const { ledger, store, chain } = aws;
  const guarded =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (error) {
        throw stageError(error, target.stage, target.region);
      }
    };
  const getRun = async (runId: string): Promise<RunRecord> => {
    const run = await ledger.getRun(runId);
    if (!run) throw new CliError(`no such run on stage ${target.stage}: ${runId}`);
    return run;
  };
  const execution = describedOnceEnded(executions);
  const view = (run: RunRecord): Promise<RunView> => runView({ chain, execution }, run, { chain: true });
  const submit = (source: Parameters<typeof submitToStage>[1], options: SubmitOptions) =>
    submitToStage({ store, s3: aws.clients.s3, ledger, now }, source, options).then((r) => ({
      ...r,
      ...(r.executionArn ? { console: consoleLink(target.region, r.executionArn) } : {}),
    }));
  return {
    where: `stage ${target.stage} in ${target.region}`,
    submit: guarded((file, options) => submit({ file }, options)),
    submitObject: guarded((object, options) => submit({ object }, options)),
    runs: guarded(async () => ledger.listRuns(100)),
    queues: guarded(() => services.queues()),
    run: guarded(async (runId) => view(await getRun(runId))),
    cancel: guarded(async (runId) => {
      await getRun(runId);
      await services.cancel(runId, 'geohub cancel');
      // The stop is recorded by the on-execution-status function (EventBridge): wait for it.
      const until = now() + CANCEL_RECORDED_MS;
      for (;;) {
        const run = await getRun(runId);
        if (ENDED_RUN_STATUSES.includes(run.status)) return view(run);
        if (now() > until)
          throw new CliError(
            `run ${runId}'s execution was stopped but the run is still ${run.status} after ${CANCEL_RECORDED_MS / 1000} s: check the on-execution-status function's logs`,
          );
        await sleep(POLL_MS);
      }
    }),
    redrive: guarded((runId) => services.redrive(runId)),
    verify: guarded(async (runId) => {
      await getRun(runId);
      const [report, claimsHeld] = await Promise.all([
        verifyRun(ledger, store, runId),
        countClaims(ledger, runId),
      ]);
      return {
        ...report,
        claimsHeld,
        parts: [],
        orphans: [],
        unseen:
          "the workers' scratch is on their Fargate tasks: no .part or orphaned tool is checked from here",
        ok: report.gaps.length === 0 && claimsHeld === 0,
      };
    }),
    copyOutputs: guarded(async (runId, out, resume) => {
      await getRun(runId);
      if (!resume) await out.clearPrevious();
      return copyRunOutputs(store, runId, out.path, { resume });
    }),
    close: () => services.close(),
  };
}
