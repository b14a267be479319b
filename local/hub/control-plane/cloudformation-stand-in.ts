import { randomUUID } from 'node:crypto';
import type { StandInAnswer } from './stand-in-answer.js';

const NS = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

const xml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

export interface LocalStackDescription {
  readonly stackName: string;
  readonly stackId: string;
  readonly createdAt: Date;
  readonly outputs: Readonly<Record<string, string>>;
}

/**
 * CloudFormation's DescribeStacks (query protocol, XML) for the one stack the local stand-ins
 * are: its outputs are what `--stage` discovers. Any other name is CloudFormation's
 * ValidationError, as for a stack that does not exist in the region.
 */
export function describeStacks(stack: LocalStackDescription, form: URLSearchParams): StandInAnswer {
  const requestId = randomUUID();
  const name = form.get('StackName') ?? '';
  if (form.get('Action') !== 'DescribeStacks') {
    return error(
      400,
      'InvalidAction',
      `${form.get('Action')} is not answered by the local stand-in`,
      requestId,
    );
  }
  if (name !== stack.stackName && name !== stack.stackId) {
    return error(400, 'ValidationError', `Stack with id ${name} does not exist`, requestId);
  }
  const outputs = Object.entries(stack.outputs)
    .map(([k, v]) => `<member><OutputKey>${xml(k)}</OutputKey><OutputValue>${xml(v)}</OutputValue></member>`)
    .join('');
  return {
    status: 200,
    headers: { 'content-type': 'text/xml', 'x-amzn-requestid': requestId },
    body:
      `<DescribeStacksResponse xmlns="${NS}"><DescribeStacksResult><Stacks><member>` +
      `<StackName>${xml(stack.stackName)}</StackName><StackId>${xml(stack.stackId)}</StackId>` +
      `<CreationTime>${stack.createdAt.toISOString()}</CreationTime><StackStatus>CREATE_COMPLETE</StackStatus>` +
      `<Outputs>${outputs}</Outputs></member></Stacks></DescribeStacksResult>` +
      `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></DescribeStacksResponse>`,
  };
}

function error(status: number, code: string, message: string, requestId: string): StandInAnswer {
  return {
    status,
    headers: { 'content-type': 'text/xml', 'x-amzn-requestid': requestId },
    body: `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${xml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
  };
}
