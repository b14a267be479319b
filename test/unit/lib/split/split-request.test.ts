import { describe, expect, it } from 'vitest';
import { InvalidSplitRequestError } from '../../../../lib/split/errors.js';
import { parseSplitRequest } from '../../../../lib/split/split-request.js';

const source = { bucket: 'geohub-data', key: 'incoming/a.tif', version: 'v1' };

describe('parseSplitRequest', () => {
  it('accepts the minimal event and defaults the params', () => {
    expect(parseSplitRequest({ source })).toEqual({ source, params: {} });
  });

  it('keeps the operation, params and execution ARN', () => {
    const event = { source, operation: 'raster-xyz', params: { zoom: 3 }, executionArn: 'arn:x' };
    expect(parseSplitRequest(event)).toEqual(event);
  });

  it('rejects a bad event with every problem listed', () => {
    expect(() =>
      parseSplitRequest({ source: { ...source, key: '../etc/passwd' }, params: { zoom: -2 } }),
    ).toThrow(InvalidSplitRequestError);
    expect(() => parseSplitRequest({ source: { ...source, key: '/abs' } })).toThrow(
      /source.key: an S3 key is relative/,
    );
    expect(() => parseSplitRequest({ source, params: { zoom: 3, extra: 1 } })).toThrow(
      /params: Unrecognized key/,
    );
    expect(() => parseSplitRequest(null)).toThrow(/invalid split request: \(event\)/);
    expect(() => parseSplitRequest({ source: { ...source, key: 'in/a\nb.tif' } })).toThrow(
      /source.key: an S3 key has no control characters/,
    );
  });
});
