import { describe, expect, it } from 'vitest';
import { decodeRequest } from '../../../../local/iam/decode-request.js';

const req = (method: string, url: string, headers: Record<string, string> = {}, body = '') => ({
  method,
  url,
  headers,
  body: Buffer.from(body),
});

describe('decoding a stand-in request into the API call it makes', () => {
  it('reads S3 operations from method, path-style key, sub-resource and version id (x-id ignored)', () => {
    expect(decodeRequest('s3', req('GET', '/b/incoming/a%20b.tif?versionId=v1&x-id=GetObject'))).toEqual({
      service: 's3',
      operation: 'GetObject',
      params: { Bucket: 'b', Key: 'incoming/a b.tif', VersionId: 'v1' },
    });
    const op = (method: string, url: string, headers?: Record<string, string>) =>
      decodeRequest('s3', req(method, url, headers)).operation;
    expect(op('HEAD', '/b/k')).toBe('HeadObject');
    expect(op('GET', '/b?list-type=2&prefix=tiles%2F')).toBe('ListObjectsV2');
    expect(op('GET', '/b?prefix=x&delimiter=%2F')).toBe('ListObjects');
    expect(op('POST', '/b/k?uploads')).toBe('CreateMultipartUpload');
    expect(op('PUT', '/b/k?partNumber=1&uploadId=u')).toBe('UploadPart');
    expect(op('POST', '/b/k?uploadId=u')).toBe('CompleteMultipartUpload');
    expect(op('DELETE', '/b/k?uploadId=u')).toBe('AbortMultipartUpload');
    expect(op('PUT', '/b/k', { 'x-amz-copy-source': '/b/j' })).toBe('CopyObject');
    expect(op('PUT', '/b/k?tagging')).toBe('PutObject?tagging');
  });

  it('reads a copy’s source from its header, version included: IAM judges the read of it too', () => {
    const call = decodeRequest(
      's3',
      req('PUT', '/data/incoming/1/a.tif', { 'x-amz-copy-source': 'survey/granted/a%20b.tif?versionId=v2' }),
    );
    expect(call.params).toEqual({
      Bucket: 'data',
      Key: 'incoming/1/a.tif',
      CopySource: { Bucket: 'survey', Key: 'granted/a b.tif', VersionId: 'v2' },
    });
  });

  it('keeps "../" in a key as S3 does (a URL parser would resolve it, and IAM would judge another ARN)', () => {
    expect(decodeRequest('s3', req('PUT', '/b/incoming/../../escape.tif')).params).toEqual({
      Bucket: 'b',
      Key: 'incoming/../../escape.tif',
    });
  });

  it('reads DynamoDB and SQS operations from X-Amz-Target and their parameters from the JSON body', () => {
    expect(
      decodeRequest(
        'dynamodb',
        req(
          'POST',
          '/',
          { 'x-amz-target': 'DynamoDB_20120810.Query' },
          '{"TableName":"t","IndexName":"runs"}',
        ),
      ),
    ).toEqual({ service: 'dynamodb', operation: 'Query', params: { TableName: 't', IndexName: 'runs' } });
    expect(
      decodeRequest(
        'sqs',
        req('POST', '/', { 'x-amz-target': 'AmazonSQS.SendMessageBatch' }, '{"QueueUrl":"u"}'),
      ),
    ).toEqual({ service: 'sqs', operation: 'SendMessageBatch', params: { QueueUrl: 'u' } });
  });

  it('reads the SQS query protocol too (Action in a form body)', () => {
    expect(
      decodeRequest('sqs', req('POST', '/', {}, 'Action=DeleteMessage&QueueUrl=http%3A%2F%2Fq%2F1%2Fw')),
    ).toEqual({
      service: 'sqs',
      operation: 'DeleteMessage',
      params: { Action: 'DeleteMessage', QueueUrl: 'http://q/1/w' },
    });
  });
});
