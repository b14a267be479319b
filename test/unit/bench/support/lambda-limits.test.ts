import { describe, expect, it } from 'vitest';
import {
  LAMBDA_UNZIPPED_LIMIT,
  LAMBDA_ZIPPED_LIMIT,
  lambdaLimitsProblem,
} from '../../../../bench/support/lambda-limits.js';

describe('lambdaLimitsProblem', () => {
  it('passes a bundle inside both limits and names each limit a bundle breaks', () => {
    expect(lambdaLimitsProblem({ bundleBytes: 9.8e6, bundleDeflatedBytes: 1.3e6 })).toBeUndefined();
    expect(lambdaLimitsProblem({ bundleBytes: LAMBDA_UNZIPPED_LIMIT, bundleDeflatedBytes: 1e6 })).toBe(
      "the split Lambda's bundle is over Lambda's limits: 250.0 MB unzipped (limit 250.0 MB)",
    );
    expect(
      lambdaLimitsProblem({
        bundleBytes: LAMBDA_UNZIPPED_LIMIT + 1,
        bundleDeflatedBytes: LAMBDA_ZIPPED_LIMIT + 1,
      }),
    ).toMatch(
      /^the split Lambda's bundle is over Lambda's limits: 50\.0 MB zipped \(limit 50\.0 MB\), 250\.0 MB unzipped/,
    );
  });
});
