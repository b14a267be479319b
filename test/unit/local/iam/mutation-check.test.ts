import { describe, expect, it } from 'vitest';
import { mutationCheck } from '../../../../local/iam/mutation-check.js';

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/t';
const principal = {
  name: 'split',
  arn: 'arn:aws:sts::000000000000:assumed-role/SplitRole/split',
  statements: [
    { Effect: 'Allow', Action: ['dynamodb:Query', 'dynamodb:PutItem'], Resource: TABLE },
    { Effect: 'Allow', Action: 'dynamodb:Query', Resource: TABLE },
    { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/incoming/*' },
    {
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: 'arn:aws:logs:*:*:*',
    },
  ],
};

describe('the IAM mutation check', () => {
  it('finds the statement each recorded request needs, and the ones no request needs', async () => {
    const recorded = [
      { principal: 'split', action: 'dynamodb:PutItem', resource: TABLE, label: 'a.test.ts' },
      { principal: 'split', action: 'dynamodb:Query', resource: TABLE, label: 'b.test.ts' },
    ];
    const verdicts = await mutationCheck([principal], recorded, '000000000000');
    // PutItem is allowed only by the first; Query by both, so removing either alone denies nothing.
    expect(verdicts[0]?.neededBy.map((r) => r.label)).toEqual(['a.test.ts']);
    expect(verdicts[1]?.neededBy).toEqual([]);
    expect(verdicts[1]?.shown).toBeUndefined();
    expect(verdicts[2]?.neededBy).toEqual([]);
    // Logs are written by Lambda itself: not called locally, its need shown instead.
    expect(verdicts[3]?.shown).toMatch(/logs/);
  });

  it('takes no request the whole policy denies as evidence (a test that granted itself more)', async () => {
    const recorded = [
      { principal: 'split', action: 'dynamodb:PutItem', resource: TABLE, label: 'a.test.ts' },
      // Granted by the test's own extra statement, not by the template: denied with or without any.
      {
        principal: 'split',
        action: 's3:GetObject',
        resource: 'arn:aws:s3:::their-data/x.tif',
        label: 'c.test.ts',
      },
    ];
    const verdicts = await mutationCheck([principal], recorded, '000000000000');
    expect(verdicts.map((v) => v.neededBy.map((r) => r.label))).toEqual([['a.test.ts'], [], [], []]);
  });
});
