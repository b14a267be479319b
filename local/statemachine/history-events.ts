/** Step Functions' limits that the local runner would otherwise not have. */
export const AWS_HISTORY_LIMIT = 25_000;
export const AWS_PAYLOAD_LIMIT_BYTES = 256 * 1024;

interface RunnerEvent {
  readonly type: string;
  readonly state?: { readonly type?: string; readonly input?: unknown; readonly output?: unknown };
}

/**
 * How many history events Step Functions writes for one event of the local runner, for a
 * state machine of Lambda tasks: a Task is entered (TaskStateEntered, LambdaFunctionScheduled,
 * LambdaFunctionStarted) and left (LambdaFunctionSucceeded, TaskStateExited); each failed
 * attempt writes LambdaFunctionFailed and each retry a new Scheduled and Started; every other
 * state writes one event to enter and one to leave; the execution one to start and one to end.
 * So a turn of Wait → Task → Choice costs 9, as it does on AWS.
 */
export function historyEventsOf(event: RunnerEvent): number {
  const task = event.state?.type === 'Task';
  switch (event.type) {
    case 'ExecutionStarted':
    case 'ExecutionSucceeded':
    case 'ExecutionFailed':
    case 'ExecutionAborted':
    case 'ExecutionTimeout':
      return 1;
    case 'StateEntered':
      return task ? 3 : 1;
    case 'StateExited':
      return task ? 2 : 1;
    case 'StateFailed':
      return task ? 1 : 0;
    case 'StateRetried':
      return 2;
    case 'StateCaught':
      return 1;
    default:
      return 1;
  }
}

/** The size Step Functions measures a state's input or output by: its JSON in UTF-8. */
export function payloadBytes(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}
