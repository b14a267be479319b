/**
 * A dry-run estimate of a run's time and AWS cost, from stated assumptions (us-east-1 list
 * prices, late 2026). The request counts per sub-tile follow the worker's protocol; the
 * benchmarks measure them (bench/), so these are a plan, not a bill.
 */
export interface EstimateAssumptions {
  /** Seconds of tool work per sub-tile, by operation (measured on 2 cores in bench/). */
  readonly secondsPerTile: Readonly<Record<string, number>>;
  readonly workers: number;
  /** Fargate Spot price of one worker task (1 vCPU, 2 GB) per hour. */
  readonly workerSpotPerHour: number;
  readonly prices: {
    readonly sqsPerMillion: number;
    readonly dynamoWritePerMillion: number;
    readonly dynamoReadPerMillion: number;
    readonly s3PutPerThousand: number;
    readonly s3GetPerThousand: number;
    readonly sfnPerThousandTransitions: number;
  };
  /** Requests per sub-tile (messages carry 16 sub-tiles). */
  readonly perTile: {
    readonly sqs: number;
    readonly dynamoWrites: number;
    readonly dynamoReads: number;
    readonly s3Puts: number;
    readonly s3Gets: number;
  };
}

export const DEFAULT_ESTIMATE: EstimateAssumptions = {
  secondsPerTile: { 'raster-xyz': 0.25, 'pointcloud-dtm': 1.5 },
  workers: 2,
  workerSpotPerHour: 0.01334053 + 2 * 0.00146489,
  prices: {
    sqsPerMillion: 0.4,
    dynamoWritePerMillion: 0.625,
    dynamoReadPerMillion: 0.125,
    s3PutPerThousand: 0.005,
    s3GetPerThousand: 0.0004,
    sfnPerThousandTransitions: 0.025,
  },
  // claim 1 + marker transaction 2 items × 2; batched skip-check, run-status polls; one PUT;
  // GDAL's ranged GETs of the source; receive, delete and a heartbeat per 16-tile message.
  perTile: { sqs: 3 / 16, dynamoWrites: 5, dynamoReads: 2, s3Puts: 1, s3Gets: 4 },
};

export interface RunEstimate {
  readonly tiles: number;
  readonly seconds: number;
  readonly cost: { readonly compute: number; readonly requests: number; readonly total: number };
}

export function estimateRun(
  tiles: number,
  operation: string,
  a: EstimateAssumptions = DEFAULT_ESTIMATE,
): RunEstimate {
  const perTile = a.secondsPerTile[operation] ?? 1;
  const workSeconds = tiles * perTile;
  const seconds = workSeconds / a.workers;
  const compute = (workSeconds / 3600) * a.workerSpotPerHour;
  const p = a.prices;
  const r = a.perTile;
  // The coordinator: ~6 transitions per 10-second progress check while the run lasts.
  const transitions = 10 + Math.ceil(seconds / 10) * 6;
  const requests =
    (tiles * r.sqs * p.sqsPerMillion) / 1e6 +
    (tiles * r.dynamoWrites * p.dynamoWritePerMillion) / 1e6 +
    (tiles * r.dynamoReads * p.dynamoReadPerMillion) / 1e6 +
    (tiles * r.s3Puts * p.s3PutPerThousand) / 1e3 +
    (tiles * r.s3Gets * p.s3GetPerThousand) / 1e3 +
    (transitions * p.sfnPerThousandTransitions) / 1e3;
  return { tiles, seconds, cost: { compute, requests, total: compute + requests } };
}
