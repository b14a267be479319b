import { describe, expect, it } from 'vitest';
import { createSfnClient } from '../../../lib/aws/sfn-client.js';
import { retryingStarter } from '../../../lib/executions/retrying-starter.js';
import { createSfnStarter } from '../../../lib/executions/sfn-starter.js';
import {
  expectAbandonedOnCancel,
  expectBoundedByTimeout,
  NO_TIMEOUT_MS,
  useHungEndpoints,
} from '../../support/hung-endpoint.js';
import { waitUntil } from '../../support/wait-until.js';

const { hung, onTeardown } = useHungEndpoints();

const STATE_MACHINE = 'arn:aws:states:us-east-1:000000000000:stateMachine:geohub-abort';
const executionArn = (name: string) => `${STATE_MACHINE.replace(':stateMachine:', ':execution:')}:${name}`;

/** The starter the Lambdas use (with its retries on refusals), on a Step Functions endpoint that never answers. */
async function hungStarter(requestTimeoutMs: number) {
  const { proxy, config } = await hung('sfn', requestTimeoutMs);
  const sfn = createSfnClient(config);
  onTeardown(() => sfn.destroy());
  return { proxy, starter: retryingStarter(createSfnStarter(sfn, STATE_MACHINE)) };
}

describe('every Step Functions call is bounded and abandoned on cancel (issue 35)', () => {
  it('StartExecution: the socket is closed within a run-watch interval, and the start is not retried', async () => {
    const { proxy, starter } = await hungStarter(NO_TIMEOUT_MS);
    const ms = await expectAbandonedOnCancel(proxy, (signal) => starter.start('r-abort', {}, { signal }));
    console.info(`Step Functions StartExecution: socket closed ${ms} ms after the cancel`);
    // The retrying starter takes an AbortError for what it is: no second attempt goes out.
    expect(await waitUntil(() => proxy.openClients() > 0, 500, 10)).toBe(false);
  });

  it('DescribeExecution: the socket is closed within a run-watch interval of the cancel', async () => {
    const { proxy, starter } = await hungStarter(NO_TIMEOUT_MS);
    const ms = await expectAbandonedOnCancel(proxy, (signal) =>
      starter.statusOf!(executionArn('r-abort'), { signal }),
    );
    console.info(`Step Functions DescribeExecution: socket closed ${ms} ms after the cancel`);
  });

  it('without a cancel, the request timeout bounds a DescribeExecution and closes its socket', async () => {
    const { proxy, starter } = await hungStarter(1_000);
    await expectBoundedByTimeout(proxy, () => starter.statusOf!(executionArn('r-x')), 1_000);
  }, 60_000);
});
