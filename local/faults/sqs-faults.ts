import { sqsInternalError } from './aws-error-shapes.js';
import { type FaultDecider, PASS } from './fault-decider.js';
import type { FaultRates } from './fault-rates.js';

const MESSAGE_OPERATIONS = new Set([
  'ReceiveMessage',
  'SendMessage',
  'SendMessageBatch',
  'DeleteMessage',
  'DeleteMessageBatch',
  'ChangeMessageVisibility',
  'ChangeMessageVisibilityBatch',
  'GetQueueAttributes',
]);

/** SQS's occasional 500, on message operations (JSON protocol: the operation is in X-Amz-Target). */
export function sqsFaults(rates: FaultRates['sqs'], random: () => number): FaultDecider {
  return (request) => {
    const op = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    if (!MESSAGE_OPERATIONS.has(op)) return PASS;
    return random() < rates.serverError ? { inject: sqsInternalError() } : PASS;
  };
}
