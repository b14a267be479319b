import { handOverTask } from '../../functions/hand-over.js';
import { onExecutionStatusTask } from '../../functions/on-execution-status.js';
import { onUploadTask } from '../../functions/on-upload.js';
import { reaperTask } from '../../functions/reaper.js';
import { redrive } from '../../lib/coordination/redrive.js';
import type { ExecutionChain } from '../../lib/ledger/execution-chain.js';
import type { Ledger } from '../../lib/ledger/ledger.js';
import { markPhase } from '../../lib/log/phase-marks.js';
import type { WorkQueue } from '../../lib/queue/work-queue.js';
import type { ObjectStore } from '../../lib/store/object-store.js';
import { guardedInvoke, guardedStarter, guardedStop } from '../iam/guard-calls.js';
import { OPERATOR } from '../iam/local-iam.js';
import { startWorkerPool, type WorkerPool } from '../pool/worker-pool.js';
import { notifies } from '../stack/s3-notification.js';
import {
  LOCAL_ACCOUNT,
  LOCAL_REGION,
  LOCAL_STAGE,
  type LocalStack,
  startLocalStack,
} from '../stack/stack.js';
import { readDefinition } from '../statemachine/definition.js';
import { createLocalExecutions, type LocalExecutions } from '../statemachine/local-executions.js';
import { type CapacityController, startCapacityController } from './capacity-controller.js';
import type { ControlPlane } from './control-plane/control-plane.js';
import { startHubControlPlane } from './control-plane/hub-control-plane.js';
import { hubConfig } from './hub-config.js';
import { incomingKey } from './incoming-key.js';
import type { LocalHubOptions } from './local-hub-options.js';
import { type PrincipalDeps, principalDeps } from './principal-deps.js';
import { nudgedCheck, progressNudge } from './progress-nudge.js';
import { serviceBehaviour } from './service-behaviour.js';
import { functionKeys, lambdaEnv, startLambdas } from './start-lambdas.js';
import { taskHandlers } from './task-handlers.js';
import { collectionFileName, uploadCollection } from './upload-collection.js';
import {
  type FileUploadOptions,
  type UploadOutcome,
  type UploadOutcomes,
  uploadFile,
  withOutcome,
} from './upload-file.js';

const STATE_MACHINE_ARN = `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:geohub-${LOCAL_STAGE}`;

export interface LocalHub {
  readonly stack: LocalStack;
  readonly ledger: Ledger;
  readonly chain: ExecutionChain;
  readonly store: ObjectStore;
  readonly queue: WorkQueue;
  readonly deadLetters: WorkQueue;
  readonly executions: LocalExecutions;
  readonly pool: WorkerPool;
  /** CloudFormation, Step Functions and Lambda as a deployed stage answers `--stage` (options.controlPlane). */
  readonly controlPlane?: ControlPlane;
  /** Which capacity new workers start on, and why (the runs' interruption rate vs break-even). */
  readonly capacity: CapacityController;
  /** Resolves once the Lambda containers warmed at start are up (a run need not wait for it). */
  readonly warm: Promise<void>;
  /** Uploads a file to incoming/; the upload's S3 event starts the run, as on AWS. */
  /** The adapters one principal (a function's handler file, `worker`, `operator`) calls AWS with. */
  principal(name: string): PrincipalDeps;
  upload(file: string, options?: FileUploadOptions): Promise<UploadOutcome>;
  /** Uploads a collection's members, then its manifest: one run over all of them (upload-collection.ts). */
  uploadCollection(
    files: readonly string[],
    options: {
      name: string;
      sizes: readonly number[];
      skipUnreadable?: boolean;
      job?: Record<string, unknown>;
      onProgress?: (sentBytes: number, totalBytes: number) => void;
      signal?: AbortSignal;
    },
  ): Promise<UploadOutcome>;
  redrive(runId?: string): ReturnType<typeof redrive>;
  reap(): ReturnType<ReturnType<typeof reaperTask>>;
  /** What the AWS-behaviour layer did outside the proxies (Lambda, Step Functions, EventBridge). */
  serviceFaults(): Readonly<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * The embedded default: the local stack, the real state machine under the local runner,
 * the upload trigger wired to s3rver's events, and a pool of real worker processes.
 */
export async function startLocalHub(options: LocalHubOptions): Promise<LocalHub> {
  // The workers and the Lambda containers start with the stack, not after it: they load their
  // code while DynamoDB Local's Java starts (the longest start), and get the stack's environment
  // once it is up (worker/env-from-parent.ts, lambda-thread-main.ts).
  const stackStart = startLocalStack({
    faults: options.faults,
    emulators: options.emulators,
    template: options.template,
  });
  let capacity: CapacityController | undefined;
  const nudge = progressNudge();
  const workers = startWorkerPool({
    size: options.workers,
    env: stackStart.then((s) => ({ ...s.envFor('worker'), ...options.workerEnv })),
    onLog: (line, parsed) => {
      capacity?.observe(parsed);
      nudge.observe(parsed);
      options.onWorkerLog?.(line, parsed);
    },
  });
  const lambdas =
    options.lambdaLimits === false
      ? undefined
      : startLambdas(
          stackStart.then((s) => ({ ...lambdaEnv(s.env, hubConfig(s.config, options)), ...functionKeys(s) })),
          options,
        );
  // Warm what every run calls, so its steps do not wait for a container's start; Drain and
  // MarkFailed (a breaker, a failure) start cold when first needed, as on Lambda. Not awaited:
  // the first upload and its execution's start overlap the containers' start, and a step that
  // comes first waits for its own container (lambda-pool.ts); stop() ends them either way.
  const warm = lambdas?.prewarm(['split', 'enqueue', 'check-progress', 'finalize']) ?? Promise.resolve();
  warm.then(() => markPhase('hub: lambda containers warm')).catch(() => {});
  let stack: LocalStack;
  try {
    stack = await stackStart;
  } catch (error) {
    await Promise.all([workers.stop(), lambdas?.stop()]);
    throw error;
  }
  try {
    // Each in-process function acts under its own role, the CLI and the page as the operator.
    const principals = principalDeps(stack, (c) => hubConfig(c, options), {
      onRequest: options.onAwsRequest,
    });
    const as = principals.of;
    const { clients, ledger, chain, store, queue, deadLetters } = as(OPERATOR);
    const { iam } = stack;
    const pollMs = options.pollMs ?? 500;

    capacity = startCapacityController(
      { ledger: as('capacity').ledger, pool: workers, log: options.log },
      options.capacity,
    );
    // Step Functions' Lambda invocations, StartExecution and EventBridge, as AWS behaves
    // (service-behaviour.ts); each caller acts under its own role, checked before the call.
    const aws = serviceBehaviour(options.faults, async (event) => {
      await onExecutionStatusTask(as('on-execution-status'))(event);
    });
    const starterOf = (principal: string) => guardedStarter(aws.starter, iam, principal, STATE_MACHINE_ARN);
    const tasks = taskHandlers(lambdas, iam, as);
    const executions = createLocalExecutions({
      definition: readDefinition(),
      handlers: aws.handlers({
        ...tasks,
        // The progress check waits first: up to pollMs, or until the run's last metatile is done.
        CheckProgress: nudgedCheck(nudge, pollMs, tasks.CheckProgress),
        // The runner is the starter of the next execution (defined by the time a run hands over).
        HandOver: guardedInvoke(iam, 'state-machine', 'hand-over', (input: unknown) =>
          handOverTask({ ...as('hand-over'), starter: starterOf('hand-over') })(input as never),
        ),
      }),
      historyLimit: options.historyLimit,
      stateMachineArn: STATE_MACHINE_ARN,
      // WaitForWork's wait is the check's own (nudged, above): up to pollMs, less at a run's end.
      waitMs: { WaitForWork: 0, WaitForDrain: pollMs },
      retryIntervalMs: 200,
      onStatus: aws.events.deliver,
    });
    aws.attach(executions);
    const onUpload = onUploadTask({ ...as('on-upload'), starter: starterOf('on-upload') });

    // Uploads are announced by s3rver's events, like S3 notifications; the outcome of each is
    // kept so that upload() can report what its own event did.
    const outcomes: UploadOutcomes = {
      waiting: new Map(),
      announces: (event, key) => notifies(stack.resources.bucket.notifications, event, key),
    };
    stack.onS3Event((record) => {
      void onUpload({ Records: [record] })
        .then((results) => {
          const key = (record as { s3: { object: { key: string } } }).s3.object.key;
          for (const r of results) outcomes.waiting.get(key)?.(r);
          outcomes.waiting.delete(key);
        })
        .catch((error: unknown) => options.log?.error({ err: error }, 'upload trigger failed'));
    });

    // The redrive function, as its Lambda runs it: under its own role.
    const redriveFunction = (runId?: string) =>
      redrive({ ...as('redrive'), starter: starterOf('redrive') }, runId);
    const operatorExecutions = guardedStop(executions, iam, OPERATOR);
    const controlPlane = options.controlPlane
      ? await startHubControlPlane(stack, operatorExecutions, redriveFunction, options.template)
      : undefined;

    let stopped = false;
    markPhase('hub: ready');
    return {
      stack,
      ledger,
      chain,
      store,
      queue,
      deadLetters,
      // Stopped from outside (the API, the CLI, a test's Stop button) by the operator.
      executions: operatorExecutions,
      pool: workers,
      controlPlane,
      capacity,
      warm,
      principal: as,
      upload: (file, uploadOptions) => uploadFile({ s3: clients.s3, store, outcomes }, file, uploadOptions),
      uploadCollection: (files, uploadOptions) =>
        withOutcome(
          outcomes,
          'ObjectCreated:Put',
          incomingKey(collectionFileName(uploadOptions.name)),
          async (key) => {
            const done = await uploadCollection(clients.s3, store, files, {
              ...uploadOptions,
              manifestKey: key,
            });
            return { parts: done.parts };
          },
        ),
      // geohub redrive invokes the redrive function, which acts under its own role.
      redrive: guardedInvoke(iam, OPERATOR, 'redrive', redriveFunction),
      reap: reaperTask({ ...as('reaper'), starter: starterOf('reaper') }),
      serviceFaults: aws.counts,
      async stop() {
        if (stopped) return;
        stopped = true;
        await executions.stopAll().catch(() => {});
        await controlPlane?.close();
        aws.events.close();
        // Independent of each other; the stack goes once nothing talks to it any more.
        await Promise.all([lambdas?.stop(), capacity?.stop(), workers.stop()]);
        principals.destroy();
        await stack.stop();
      },
    };
  } catch (error) {
    await Promise.all([workers.stop(), lambdas?.stop(), capacity?.stop()]);
    await stack.stop();
    throw error;
  }
}
