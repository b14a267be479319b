import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../lib/config/errors.js';
import { AWS_BASELINE, parseFaultRates } from '../../../../local/faults/fault-rates.js';

describe('fault rates', () => {
  it('default to AWS’s behaviour under concurrency only: no random faults, DynamoDB’s per-partition limits', () => {
    expect(AWS_BASELINE).toMatchObject({
      dynamodb: {
        conflict: 0,
        conflictEvery: 0,
        throttle: 0,
        serverError: 0,
        keyWritesPerSecond: 1_000,
        keyReadsPerSecond: 3_000,
      },
      s3: { slowDown: 0, serverError: 0 },
      sqs: { serverError: 0, emptyShortPoll: 0 },
      lambda: { serviceError: 0 },
      sfn: { startThrottle: 0 },
      events: { lost: 0, late: 0 },
      latencyMs: 0,
    });
  });

  it('reject a probability outside [0, 1] with one line naming the variable', () => {
    let error: unknown;
    try {
      parseFaultRates({ GEOHUB_FAULT_S3_503: '5' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^invalid fault rates: GEOHUB_FAULT_S3_503: /);
    expect((error as Error).message).not.toContain('\n');
  });
});
