import { randomUUID } from 'node:crypto';
import type { InjectedAnswer } from './aws-error-shapes.js';
import { type FaultDecider, PASS } from './fault-decider.js';

/** ReceiveMessage's answer when the servers it sampled held nothing: 200 and no Messages. */
function noMessages(): InjectedAnswer {
  return {
    status: 200,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() },
    body: '{}',
    kind: 'EmptyShortPoll',
  };
}

/**
 * A short-poll ReceiveMessage (WaitTimeSeconds 0) asks only a subset of SQS's servers, so it
 * may return no message while the queue holds some (AWS docs, "Amazon SQS short and long
 * polling"); a long poll asks them all. geohub's queue adapter always sends WaitTimeSeconds, so
 * an explicit 0 is what marks a short poll here.
 */
export function sqsShortPoll(rate: number, random: () => number): FaultDecider {
  return (request) => {
    if (String(request.headers['x-amz-target'] ?? '') !== 'AmazonSQS.ReceiveMessage') return PASS;
    let wait: unknown;
    try {
      wait = (JSON.parse(request.body.toString('utf8')) as { WaitTimeSeconds?: unknown }).WaitTimeSeconds;
    } catch {
      return PASS;
    }
    return wait === 0 && random() < rate ? { inject: noMessages() } : PASS;
  };
}
