import { DEFAULT_ESTIMATE } from '../../lib/cost/run-estimate.js';

/** Capacity units per request, for items under 1 KB (ours are): a transaction writes 2 items at 2 WRU. */
const WRITE_UNITS: Record<string, number> = {
  'DynamoDB.PutItemCommand': 1,
  'DynamoDB.UpdateItemCommand': 1,
  'DynamoDB.TransactWriteItemsCommand': 4,
};
const READ_UNITS: Record<string, number> = {
  'DynamoDB.GetItemCommand': 1, // strongly consistent
  'DynamoDB.QueryCommand': 1,
  'DynamoDB.BatchGetItemCommand': 16, // one message's sub-tiles, strongly consistent
};

/**
 * Prices counted requests per 1,000 sub-tiles at the list prices of DEFAULT_ESTIMATE:
 * SQS requests, DynamoDB on-demand read/write units, S3 PUT/GET, Step Functions transitions.
 */
export function pricePer1000(
  requests: Record<string, number>,
  s3Http: Record<string, number>,
  transitions: number,
  tiles: number,
) {
  const p = DEFAULT_ESTIMATE.prices;
  const per = (n: number) => (n / tiles) * 1000;
  let sqs = 0;
  let wru = 0;
  let rru = 0;
  for (const [k, n] of Object.entries(requests)) {
    if (k.startsWith('SQS.')) sqs += n;
    wru += (WRITE_UNITS[k] ?? 0) * n;
    rru += (READ_UNITS[k] ?? 0) * n;
  }
  const puts = s3Http.PUT ?? 0;
  const gets = (s3Http.GET ?? 0) + (s3Http.HEAD ?? 0);
  const usd = {
    sqs: (per(sqs) * p.sqsPerMillion) / 1e6,
    dynamodb: (per(wru) * p.dynamoWritePerMillion + per(rru) * p.dynamoReadPerMillion) / 1e6,
    s3: (per(puts) * p.s3PutPerThousand + per(gets) * p.s3GetPerThousand) / 1e3,
    stepFunctions: (per(transitions) * p.sfnPerThousandTransitions) / 1e3,
  };
  return {
    perSubTile: {
      sqsRequests: sqs / tiles,
      dynamoWriteUnits: wru / tiles,
      dynamoReadUnits: rru / tiles,
      s3Puts: puts / tiles,
      s3Gets: gets / tiles,
      transitions: transitions / tiles,
    },
    usdPer1000: { ...usd, total: usd.sqs + usd.dynamodb + usd.s3 + usd.stepFunctions },
  };
}
