import { describe, expect, it } from 'vitest';
import { authorizedRequest, requestKeyId } from '../../../../local/stack/stand-in-auth.js';

const header = (key: string) => ({
  authorization: `AWS4-HMAC-SHA256 Credential=${key}/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=ab`,
});

describe('the stand-ins’ key check', () => {
  it('reads the key id from the Authorization header or a presigned URL', () => {
    expect(requestKeyId(header('GHKEY1'), '/bucket/key')).toBe('GHKEY1');
    expect(requestKeyId({}, '/b/k?X-Amz-Credential=GHKEY2%2F20260101%2Fus-east-1%2Fs3%2Faws4_request')).toBe(
      'GHKEY2',
    );
    expect(requestKeyId({}, '/b/k')).toBeUndefined();
  });

  it('lets through only the start’s own key id', () => {
    expect(authorizedRequest(header('GHKEY1'), '/', 'GHKEY1')).toBe(true);
    expect(authorizedRequest(header('S3RVER'), '/', 'GHKEY1')).toBe(false);
    expect(authorizedRequest(header('GHKEY'), '/', 'GHKEY1')).toBe(false);
    expect(authorizedRequest({}, '/', 'GHKEY1')).toBe(false);
  });
});
