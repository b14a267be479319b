import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  type SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { abortOf } from '../aws/abort-of.js';
import type { ExecutionStarter } from './execution-starter.js';

/** Executions on AWS Step Functions. */
export function createSfnStarter(sfn: SFNClient, stateMachineArn: string): ExecutionStarter {
  const arnFor = (name: string) => `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
  return {
    arnFor,
    async start(name, input, options) {
      try {
        const r = await sfn.send(
          new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }),
          abortOf(options),
        );
        return { executionArn: r.executionArn ?? arnFor(name), started: true };
      } catch (error) {
        // The name is taken: this object version already has its execution.
        if (error instanceof ExecutionAlreadyExists) return { executionArn: arnFor(name), started: false };
        throw error;
      }
    },
    async statusOf(executionArn, options) {
      try {
        return (await sfn.send(new DescribeExecutionCommand({ executionArn }), abortOf(options))).status;
      } catch (error) {
        if (error instanceof ExecutionDoesNotExist) return undefined;
        throw error;
      }
    },
  };
}
