import { runSimulation } from '@cloud-copilot/iam-simulate';
import { describe, expect, it } from 'vitest';
import { createAuthorizer, type Principal } from '../../../../local/iam/authorizer.js';
import { decisionClasses } from '../../../../local/iam/decision-class.js';
import { createLocalIam } from '../../../../local/iam/local-iam.js';
import { readServerlessDocument } from '../../../../local/stack/serverless-document.js';

const ACCOUNT = '000000000000';
// biome-ignore lint/suspicious/noTemplateCurlyInString: an IAM policy variable, as a policy writes it
const VARIABLE = '${aws:username}';
const runs = (key: string, bucket = 'bkt') => ({
  action: 's3:PutObject',
  resource: `arn:aws:s3:::${bucket}/${key}`,
});

describe('decision classes', () => {
  const classOf = decisionClasses([
    { Effect: 'Allow', Action: 's3:PutObject', Resource: 'arn:aws:s3:::bkt/runs/*' },
    { Effect: 'Deny', Action: 's3:*', NotResource: 'arn:aws:s3:::bkt/runs/secret?/*' },
  ]);

  it('put the tiles of a run in one class, and what any pattern tells apart in others', () => {
    expect(classOf(runs('runs/r1/tiles/12/1/2.tif'))).toBe(classOf(runs('runs/r2/tiles/3/4/5.tif')));
    expect(classOf(runs('incoming/a.tif'))).not.toBe(classOf(runs('runs/r1/a.tif')));
    expect(classOf(runs('runs/secret1/a.tif'))).not.toBe(classOf(runs('runs/r1/a.tif')));
    expect(classOf(runs('Runs/r1/a.tif'))).not.toBe(classOf(runs('runs/r1/a.tif')));
    expect(classOf(runs('runs/r1/a.tif', 'other'))).not.toBe(classOf(runs('runs/r1/a.tif')));
    expect(classOf({ ...runs('runs/r1/a.tif'), action: 's3:GetObject' })).not.toBe(
      classOf(runs('runs/r1/a.tif')),
    );
  });

  it('keep one class per ARN where the evaluator reads more than the key as a wildcard', () => {
    for (const key of ['runs/a*b.tif', 'runs/a?b.tif', `runs/${VARIABLE}`, 'runs/a:b.tif'])
      expect(classOf(runs(key))).toBe(`s3:PutObject|arn:aws:s3:::bkt/${key}`);
    for (const pattern of [
      'arn:aws:s3:::bk*/runs/*',
      `arn:aws:s3:::bkt/${VARIABLE}/*`,
      'arn:*:s3:::bkt/*',
      'arn:aws:s3',
    ])
      expect(decisionClasses([{ Effect: 'Allow', Action: 's3:*', Resource: pattern }])(runs('runs/x'))).toBe(
        's3:PutObject|arn:aws:s3:::bkt/runs/x',
      );
  });

  // The class is a cache key: it must never change a decision. Every principal of the stack's
  // own template, asked about a spread of object ARNs in the order a run would, through one
  // authorizer (classes cached) and one fresh simulation each.
  it('never change a decision of the evaluator on the template’s own policies', async () => {
    const iam = await createLocalIam({
      document: readServerlessDocument(),
      vars: { stage: 'local', region: 'us-east-1' },
      scope: { partition: 'aws', region: 'us-east-1', account: ACCOUNT },
      secret: 'test',
    });
    const bucket = iam.principals.flatMap(
      (p) => JSON.stringify(p.statements).match(/arn:aws:s3:::([a-z0-9.-]+)/)?.[1] ?? [],
    )[0];
    if (!bucket) throw new Error('no bucket in the template');
    const keys = [
      'runs/r1/tiles/12/1205/1539.tif',
      'runs/r2/tiles/9/1/2.png',
      'runs/r1/manifest.json',
      'incoming/u1/RGB.byte.tif',
      'incoming/u1/RGB.byte.tif.job.json',
      'Runs/r1/tiles/1/2/3.tif',
      'other/x.tif',
      'runs',
      'incoming/',
    ];
    const actions = [
      's3:PutObject',
      's3:GetObject',
      's3:GetObjectVersion',
      's3:DeleteObject',
      's3:AbortMultipartUpload',
    ];
    const needs = actions.flatMap((action) =>
      [bucket, 'another-bucket'].flatMap((b) =>
        keys.map((key) => ({ action, resource: `arn:aws:s3:::${b}/${key}` })),
      ),
    );
    const authorizer = createAuthorizer(iam.principals, ACCOUNT);
    let allowed = 0;
    for (const principal of iam.principals) {
      for (const need of needs) {
        const cached = (await authorizer.authorize(principal.name, [need])).allowed;
        expect(cached, `${principal.name} ${need.action} ${need.resource}`).toBe(
          await simulate(principal, need),
        );
        if (cached) allowed += 1;
      }
    }
    // Both answers occur: the comparison is not between two constant denials.
    expect(allowed).toBeGreaterThan(10);
    expect(allowed).toBeLessThan(iam.principals.length * needs.length);
  }, 120_000);
});

async function simulate(principal: Principal, need: { action: string; resource: string }): Promise<boolean> {
  const result = await runSimulation(
    {
      identityPolicies: [
        { name: principal.name, policy: { Version: '2012-10-17', Statement: principal.statements as never } },
      ],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action: need.action,
        principal: principal.arn,
        resource: { resource: need.resource, accountId: ACCOUNT },
        contextVariables: {},
      },
    },
    {},
  );
  return result.resultType !== 'error' && result.overallResult === 'Allowed';
}
