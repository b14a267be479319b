import { describe, expect, it } from 'vitest';
import { ResourceDefinitionError } from '../../../../local/stack/errors.js';
import { readResources } from '../../../../local/stack/resources.js';
import { notifies, readNotifications } from '../../../../local/stack/s3-notification.js';

const vars = { stage: 'test', accountId: '111122223333', region: 'eu-west-1' };

const lambda = (Event: string, rules: { Name: string; Value: string }[] = []) => ({
  LambdaConfigurations: [{ Event, Filter: { S3Key: { Rules: rules } }, Function: 'arn' }],
});

describe("the bucket's notification configuration (serverless.yml)", () => {
  it('is read from the template: object-created events under incoming/, to the upload trigger', () => {
    expect(readResources(vars).bucket.notifications).toEqual([
      { event: 's3:ObjectCreated:*', prefix: 'incoming/' },
    ]);
  });

  it('sends what S3 sends: the event family or type, the key within prefix and suffix', () => {
    const [rule] = readNotifications(lambda('s3:ObjectCreated:*', [{ Name: 'prefix', Value: 'incoming/' }]));
    const rules = [rule!];
    for (const event of [
      'ObjectCreated:Put',
      'ObjectCreated:CompleteMultipartUpload',
      'ObjectCreated:Copy',
    ]) {
      expect(notifies(rules, event, 'incoming/a.tif')).toBe(true);
    }
    // A run's tiles, its outputs, a delete: nothing is sent.
    expect(notifies(rules, 'ObjectCreated:Put', 'runs/r-1/tiles/12/3/4.tif')).toBe(false);
    expect(notifies(rules, 'ObjectRemoved:Delete', 'incoming/a.tif')).toBe(false);
    // Case-sensitive, and a prefix, not a substring.
    expect(notifies(rules, 'ObjectCreated:Put', 'Incoming/a.tif')).toBe(false);
    expect(notifies(rules, 'ObjectCreated:Put', 'x/incoming/a.tif')).toBe(false);

    const exact = readNotifications(
      lambda('s3:ObjectCreated:Put', [
        { Name: 'Prefix', Value: 'in/' },
        { Name: 'suffix', Value: '.tif' },
      ]),
    );
    expect(exact).toEqual([{ event: 's3:ObjectCreated:Put', prefix: 'in/', suffix: '.tif' }]);
    expect(notifies(exact, 'ObjectCreated:Put', 'in/a.tif')).toBe(true);
    expect(notifies(exact, 'ObjectCreated:CompleteMultipartUpload', 'in/a.tif')).toBe(false);
    expect(notifies(exact, 'ObjectCreated:Put', 'in/a.tif.job.json')).toBe(false);
    // No configuration, no event.
    expect(notifies([], 'ObjectCreated:Put', 'incoming/a.tif')).toBe(false);
  });

  it("takes a filter value's special characters URL-encoded, as S3 does, and matches the key as stored", () => {
    const rules = readNotifications(
      lambda('s3:ObjectCreated:*', [{ Name: 'prefix', Value: 'my+uploads%2Fx/' }]),
    );
    expect(notifies(rules, 'ObjectCreated:Put', 'my uploads/x/a.tif')).toBe(true);
  });

  it('refuses what it does not model rather than never sending it', () => {
    expect(() => readNotifications({ QueueConfigurations: [] })).toThrow(ResourceDefinitionError);
    expect(() => readNotifications(lambda('ObjectCreated:*'))).toThrow(ResourceDefinitionError);
    expect(() => readNotifications(lambda('s3:ObjectCreated:*', [{ Name: 'contains', Value: 'x' }]))).toThrow(
      ResourceDefinitionError,
    );
    expect(() =>
      readNotifications(
        lambda('s3:ObjectCreated:*', [
          { Name: 'prefix', Value: 'a/' },
          { Name: 'prefix', Value: 'b/' },
        ]),
      ),
    ).toThrow(ResourceDefinitionError);
    expect(readNotifications(undefined)).toEqual([]);
  });
});
