import './polyfill.js';
import { ExecutionAbortedError, ExecutionTimeoutError, StateMachine } from 'aws-local-stepfunctions';
import type { ExecutionStarter } from '../../lib/executions/execution-starter.js';
import { ExecutionDoesNotExistError } from './errors.js';
import {
  AWS_HISTORY_LIMIT,
  AWS_PAYLOAD_LIMIT_BYTES,
  historyEventsOf,
  payloadBytes,
} from './history-events.js';

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT';

export interface LocalExecution {
  readonly name: string;
  readonly executionArn: string;
  readonly input: Readonly<Record<string, unknown>>;
  status: ExecutionStatus;
  error?: string;
  cause?: string;
  output?: unknown;
  readonly startedAt: Date;
  stoppedAt?: Date;
  /** The states entered, in order: what the console's graph shows. */
  readonly states: string[];
  /** History events written so far, counted as Step Functions counts them. */
  historyEvents: number;
  readonly done: Promise<void>;
}

/** What EventBridge delivers when an execution ends. */
export interface ExecutionStatusEvent {
  readonly detail: {
    readonly executionArn: string;
    readonly status: ExecutionStatus;
    readonly input: string;
    readonly error?: string;
    readonly cause?: string;
  };
}

export interface LocalExecutionsOptions {
  readonly definition: Record<string, unknown>;
  /** Task state name → the local function standing in for its Lambda. */
  readonly handlers: Readonly<Record<string, (input: unknown) => Promise<unknown>>>;
  /** Wait state name → milliseconds (the local stack need not wait as long as AWS). */
  readonly waitMs?: Readonly<Record<string, number>>;
  readonly retryIntervalMs?: number;
  readonly stateMachineArn?: string;
  /** The EventBridge rule's stand-in: called when an execution ends, whatever its status. */
  readonly onStatus?: (event: ExecutionStatusEvent) => Promise<void>;
  /** History events at which an execution fails (AWS: 25,000); lowered in tests, same code path. */
  readonly historyLimit?: number;
  /** Largest state input or output, in bytes (AWS: 256 KiB). */
  readonly payloadLimitBytes?: number;
}

export interface LocalExecutions extends ExecutionStarter {
  get(executionArn: string): LocalExecution | undefined;
  list(): LocalExecution[];
  /** Stops a running execution, as StopExecution (the console's Stop button) does. */
  stop(executionArn: string): Promise<void>;
  /** Resolves once the execution has ended. */
  wait(executionArn: string): Promise<LocalExecution>;
  stopAll(): Promise<void>;
  /** Lowers (or restores) the history limit for the events still to come: how tests make an execution die of it. */
  setHistoryLimit(limit: number): void;
}

/**
 * Step Functions on a laptop: the real ASL file under aws-local-stepfunctions, each Task
 * overridden by the same task function the Lambda runs. Keeps execution names unique, as
 * the service does, so a duplicate upload event starts nothing.
 */
export function createLocalExecutions(options: LocalExecutionsOptions): LocalExecutions {
  const machineArn =
    options.stateMachineArn ?? 'arn:aws:states:us-east-1:000000000000:stateMachine:geohub-local';
  // Not validated again at each start: asl-validator took 0.7 s of every `geohub run`'s start-up,
  // on the critical path, for the one ASL file the repo ships, which its unit test validates
  // (test/unit/statemachine/definition.test.ts) as CI does before anything lands.
  const machine = new StateMachine(options.definition as never, {
    validationOptions: { noValidate: true },
  });
  const executions = new Map<string, LocalExecution & { abort: () => void }>();
  const arnFor = (name: string) => `${machineArn.replace(':stateMachine:', ':execution:')}:${name}`;
  const retryStates = Object.keys(options.definition.States as object);
  let historyLimit = options.historyLimit ?? AWS_HISTORY_LIMIT;
  const payloadLimit = options.payloadLimitBytes ?? AWS_PAYLOAD_LIMIT_BYTES;

  const start: ExecutionStarter['start'] = async (name, input) => {
    const executionArn = arnFor(name);
    if (executions.has(executionArn)) return { executionArn, started: false };
    const run = machine.run(input as never, {
      context: { Execution: { Id: executionArn, Name: name } } as never,
      overrides: {
        taskResourceLocalHandlers: options.handlers as never,
        waitTimeOverrides: options.waitMs as never,
        ...(options.retryIntervalMs !== undefined
          ? {
              retryIntervalOverrides: Object.fromEntries(
                retryStates.map((s) => [s, options.retryIntervalMs!]),
              ),
            }
          : {}),
      },
    });
    const states: string[] = [];
    const record = {
      name,
      executionArn,
      input,
      status: 'RUNNING' as ExecutionStatus,
      startedAt: new Date(),
      states,
      historyEvents: 0,
      abort: run.abort,
      done: Promise.resolve(),
    };
    // A limit AWS enforces ends the execution FAILED, as it would there (the runner only aborts).
    let limitFailure: { error: string; cause: string } | undefined;
    const failOnLimit = (error: string, cause: string) => {
      if (limitFailure) return;
      limitFailure = { error, cause };
      run.abort();
    };
    const follow = (async () => {
      for await (const event of run.eventLogs) {
        const e = event as {
          type: string;
          state?: { name: string; type?: string; input?: unknown; output?: unknown };
          Error?: string;
          Cause?: string;
        };
        record.historyEvents += historyEventsOf(e);
        if (e.type === 'StateEntered' && e.state) states.push(e.state.name);
        if (record.historyEvents >= historyLimit && record.status === 'RUNNING')
          failOnLimit(
            'States.Runtime',
            `The execution reached the maximum number of history events (${historyLimit}).`,
          );
        const payload =
          e.type === 'StateEntered' ? e.state?.input : e.type === 'StateExited' ? e.state?.output : undefined;
        if (payload !== undefined && payloadBytes(payload) > payloadLimit)
          failOnLimit(
            'States.DataLimitExceeded',
            `The state/task '${e.state?.name}' returned a result with a size exceeding the maximum number of bytes service limit (${payloadLimit}).`,
          );
        if (e.type === 'ExecutionFailed') {
          record.status = 'FAILED';
          Object.assign(record, { error: e.Error, cause: e.Cause });
        }
      }
    })();
    record.done = run.result
      .then((output) => {
        Object.assign(record, { status: 'SUCCEEDED', output });
      })
      .catch((error: unknown) => {
        if (limitFailure) {
          record.status = 'FAILED';
          Object.assign(record, limitFailure);
        } else if (error instanceof ExecutionAbortedError) record.status = 'ABORTED';
        else if (error instanceof ExecutionTimeoutError) record.status = 'TIMED_OUT';
        else {
          record.status = 'FAILED';
          const e = error as { name?: string; message?: string; cause?: { name?: string; message?: string } };
          Object.assign(record, {
            error: (record as LocalExecution).error ?? e.cause?.name ?? e.name,
            cause: (record as LocalExecution).cause ?? e.cause?.message ?? e.message,
          });
        }
      })
      .then(async () => {
        await follow.catch(() => {});
        (record as LocalExecution).stoppedAt = new Date();
        if (options.onStatus) {
          const { error, cause } = record as LocalExecution;
          await options.onStatus({
            detail: { executionArn, status: record.status, input: JSON.stringify(input), error, cause },
          });
        }
      });
    executions.set(executionArn, record);
    return { executionArn, started: true };
  };

  return {
    arnFor,
    start,
    statusOf: async (arn) => executions.get(arn)?.status,
    get: (arn) => executions.get(arn),
    list: () => [...executions.values()],
    async stop(arn) {
      const execution = executions.get(arn);
      if (execution?.status !== 'RUNNING') return;
      execution.abort();
      await execution.done;
    },
    async wait(arn) {
      const execution = executions.get(arn);
      if (!execution) throw new ExecutionDoesNotExistError(`no execution ${arn}`);
      await execution.done;
      return execution;
    },
    setHistoryLimit(limit) {
      historyLimit = limit;
    },
    async stopAll() {
      await Promise.all(
        [...executions.values()].filter((e) => e.status === 'RUNNING').map((e) => this.stop(e.executionArn)),
      );
    },
  };
}
