import { randomUUID } from 'node:crypto';
import type { LocalExecution, LocalExecutions } from '../../statemachine/local-executions.js';
import { json10, type StandInAnswer } from './stand-in-answer.js';

const seconds = (d: Date | undefined) => (d ? d.getTime() / 1000 : undefined);

const notFound = (arn: string, requestId: string) =>
  json10(
    400,
    {
      __type: 'com.amazonaws.swf.service.v2.model#ExecutionDoesNotExist',
      message: `Execution Does Not Exist: '${arn}'`,
    },
    requestId,
  );

function described(e: LocalExecution, stateMachineArn: string) {
  return {
    executionArn: e.executionArn,
    stateMachineArn,
    name: e.name,
    status: e.status,
    startDate: seconds(e.startedAt),
    ...(e.stoppedAt ? { stopDate: seconds(e.stoppedAt) } : {}),
    input: JSON.stringify(e.input),
    ...(e.output === undefined ? {} : { output: JSON.stringify(e.output) }),
    ...(e.error ? { error: e.error } : {}),
    ...(e.cause ? { cause: e.cause } : {}),
  };
}

/**
 * Step Functions' DescribeExecution and StopExecution (JSON 1.0) over the local executions: what
 * the CLI and the console call on a deployed stack. Nothing else is answered.
 */
export async function stepFunctions(
  executions: Pick<LocalExecutions, 'get' | 'stop'>,
  stateMachineArn: string,
  operation: string,
  params: Record<string, unknown>,
): Promise<StandInAnswer> {
  const requestId = randomUUID();
  const arn = String(params.executionArn ?? '');
  const execution = executions.get(arn);
  if (operation !== 'DescribeExecution' && operation !== 'StopExecution') {
    return json10(400, { __type: 'UnknownOperationException', message: `${operation}` }, requestId);
  }
  if (!execution) return notFound(arn, requestId);
  if (operation === 'DescribeExecution') return json10(200, described(execution, stateMachineArn), requestId);
  // Stopping an execution that has ended changes nothing and is not an error.
  if (execution.status === 'RUNNING') await executions.stop(arn);
  return json10(200, { stopDate: seconds(execution.stoppedAt ?? new Date()) }, requestId);
}
