/** Lambda's limits for a function's code: a 50 MB zipped upload, 250 MB unzipped. */
export const LAMBDA_ZIPPED_LIMIT = 50 * 2 ** 20;
export const LAMBDA_UNZIPPED_LIMIT = 250 * 2 ** 20;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** The one line saying which of Lambda's code limits a bundle breaks, or undefined when it fits both. */
export function lambdaLimitsProblem(bundle: {
  bundleBytes: number;
  bundleDeflatedBytes: number;
}): string | undefined {
  const problems = [
    bundle.bundleDeflatedBytes >= LAMBDA_ZIPPED_LIMIT &&
      `${mb(bundle.bundleDeflatedBytes)} zipped (limit ${mb(LAMBDA_ZIPPED_LIMIT)})`,
    bundle.bundleBytes >= LAMBDA_UNZIPPED_LIMIT &&
      `${mb(bundle.bundleBytes)} unzipped (limit ${mb(LAMBDA_UNZIPPED_LIMIT)})`,
  ].filter(Boolean);
  return problems.length > 0
    ? `the split Lambda's bundle is over Lambda's limits: ${problems.join(', ')}`
    : undefined;
}
