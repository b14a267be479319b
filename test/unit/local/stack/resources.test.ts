import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResourceDefinitionError } from '../../../../local/stack/errors.js';
import { readResources } from '../../../../local/stack/resources.js';
import { tempDir } from '../../../support/temp-dir.js';

const vars = { stage: 'test', accountId: '111122223333', region: 'eu-west-1' };

describe('readResources (serverless.yml as the one source of truth)', () => {
  it('reads the bucket, table and queues with resolved names', () => {
    const r = readResources(vars);
    expect(r.bucket.BucketName).toBe('geohub-test-111122223333-data');
    expect(r.table.TableName).toBe('geohub-test-ledger');
    expect(r.table.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(r.queues.map((q) => q.QueueName)).toEqual(['geohub-test-dlq', 'geohub-test-work']);
  });

  it('orders dead-letter queues before the queues that redrive to them', () => {
    const r = readResources(vars);
    const work = r.queues[1]!;
    expect(work.redrive).toEqual({ deadLetterLogicalId: 'DeadLetterQueue', maxReceiveCount: 3 });
    expect(work.attributes).toMatchObject({ VisibilityTimeout: '60', SqsManagedSseEnabled: 'true' });
  });

  it('resolves CloudFormation pseudo parameters only inside Fn::Sub', () => {
    const dir = tempDir('geohub-res-');
    const write = (bucketName: string) => {
      const file = join(dir, `serverless-${Math.random()}.yml`);
      writeFileSync(
        file,
        [
          'service: demo',
          'resources:',
          '  Resources:',
          `    B: { Type: AWS::S3::Bucket, Properties: { BucketName: ${bucketName} } }`,
          '    T: { Type: AWS::DynamoDB::Table, Properties: { TableName: t, KeySchema: [] } }',
        ].join('\n'),
      );
      return file;
    };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation and Serverless variables
    const sub = write('{ Fn::Sub: "${self:service}-${sls:stage}-${AWS::AccountId}-${AWS::Region}" }');
    expect(readResources(vars, sub).bucket.BucketName).toBe('demo-test-111122223333-eu-west-1');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a CloudFormation variable outside Fn::Sub
    const plain = write('"x-${AWS::AccountId}"');
    expect(() => readResources(vars, plain)).toThrow(/AWS::AccountId/);
  });

  it('refuses a name built from a variable it cannot resolve', () => {
    const dir = tempDir('geohub-res-');
    const file = join(dir, 'serverless.yml');
    writeFileSync(
      file,
      [
        'resources:',
        '  Resources:',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Serverless variable, not a template
        '    B: { Type: AWS::S3::Bucket, Properties: { BucketName: "${env:SECRET}" } }',
        '    T: { Type: AWS::DynamoDB::Table, Properties: { TableName: t, KeySchema: [] } }',
      ].join('\n'),
    );
    expect(() => readResources(vars, file)).toThrow(ResourceDefinitionError);
    expect(() => readResources(vars, file)).toThrow(/env:SECRET/);
  });
});
