import { describe, expect, it } from 'vitest';
import { createAuthorizer } from '../../../../local/iam/authorizer.js';

const principal = {
  name: 'worker',
  arn: 'arn:aws:sts::000000000000:assumed-role/WorkerRole/worker',
  statements: [{ Effect: 'Allow', Action: 's3:PutObject', Resource: 'arn:aws:s3:::bkt/runs/*' }],
};
const tile = (i: number) => ({
  action: 's3:PutObject',
  resource: `arn:aws:s3:::bkt/runs/r1/tiles/18/${i}/0.tif`,
});

describe('the authorizer', () => {
  // A `geohub up` lives for days and writes a tile a need: what it keeps must not grow with them.
  it('keeps a bounded record however many objects a run writes, each class still in it', async () => {
    const authorizer = createAuthorizer([principal], '000000000000');
    for (let i = 0; i < 20_000; i += 1)
      expect((await authorizer.authorize('worker', [tile(i)])).allowed).toBe(true);
    const refused = { action: 's3:PutObject', resource: 'arn:aws:s3:::bkt/incoming/x.tif' };
    expect(await authorizer.authorize('worker', [refused])).toEqual({ allowed: false, denied: refused });
    const allowed = authorizer.allowed();
    expect(allowed.length).toBeLessThanOrEqual(4097);
    // The first of the class (what the mutation check replays) and the last one, as they were.
    expect(allowed).toContainEqual({ principal: 'worker', ...tile(0) });
    expect(allowed).toContainEqual({ principal: 'worker', ...tile(19_999) });
    expect(authorizer.denied()).toEqual([{ principal: 'worker', ...refused }]);
  });
});
