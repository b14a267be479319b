import { randomUUID } from 'node:crypto';
import type { InjectedAnswer } from '../faults/aws-error-shapes.js';
import type { Need } from './api-call.js';

/** IAM's wording of an implicit deny, as the services put it in their messages. */
export const denialMessage = (principalArn: string, need: Need) =>
  `User: ${principalArn} is not authorized to perform: ${need.action} on resource: ${need.resource} because no identity-based policy allows the ${need.action} action`;

/**
 * The answer each service gives a call IAM refused, in its own protocol: the SDK classes all
 * as client errors of the service (4xx, not throttling), so none is retried.
 */
export function accessDenied(
  service: 'dynamodb' | 's3' | 'sqs' | 'states' | 'lambda' | 'cloudformation',
  principalArn: string,
  need: Need,
  head: boolean,
): InjectedAnswer {
  const message = denialMessage(principalArn, need);
  const requestId = randomUUID();
  if (service === 's3') {
    const id = requestId.replace(/-/g, '').slice(0, 16).toUpperCase();
    return {
      status: 403,
      headers: { 'content-type': 'application/xml', 'x-amz-request-id': id },
      // A HEAD answer has no body: the SDK names the error from the status (Forbidden), as with S3.
      body: head
        ? ''
        : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${message}</Message><RequestId>${id}</RequestId></Error>`,
      kind: 'AccessDenied',
    };
  }
  if (service === 'dynamodb') {
    return {
      status: 400,
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId },
      body: JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', Message: message }),
      kind: 'AccessDeniedException',
    };
  }
  if (service === 'states') {
    return {
      status: 400,
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId },
      body: JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', message }),
      kind: 'AccessDeniedException',
    };
  }
  if (service === 'lambda') {
    return {
      status: 403,
      headers: {
        'content-type': 'application/json',
        'x-amzn-requestid': requestId,
        'x-amzn-errortype': 'AccessDeniedException',
      },
      body: JSON.stringify({ Type: 'User', Message: message }),
      kind: 'AccessDeniedException',
    };
  }
  if (service === 'cloudformation') {
    return {
      status: 403,
      headers: { 'content-type': 'text/xml', 'x-amzn-requestid': requestId },
      body: `<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>${message}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
      kind: 'AccessDenied',
    };
  }
  // SQS's JSON protocol keeps the query protocol's code in a header (AccessDenied, Sender).
  return {
    status: 403,
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': requestId,
      'x-amzn-query-error': 'AccessDenied;Sender',
    },
    body: JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', message }),
    kind: 'AccessDenied',
  };
}
