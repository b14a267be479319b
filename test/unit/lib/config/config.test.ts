import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../lib/config/config.js';
import { ConfigError } from '../../../../lib/config/errors.js';

const minimal = {
  GEOHUB_BUCKET: 'geohub-data',
  GEOHUB_TABLE: 'geohub-ledger',
  GEOHUB_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/work',
  GEOHUB_DLQ_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/dlq',
};

describe('loadConfig', () => {
  it('applies defaults and leaves endpoints unset for real AWS', () => {
    const config = loadConfig(minimal);
    expect(config).toMatchObject({
      region: 'us-east-1',
      bucket: 'geohub-data',
      table: 'geohub-ledger',
      requestTimeoutMs: 10_000,
      maxAttempts: 3,
      tilesPerMessage: 16,
      endpoints: { dynamodb: undefined, s3: undefined, sqs: undefined },
    });
  });

  it('reads local endpoints and numeric settings from strings', () => {
    const config = loadConfig({
      ...minimal,
      GEOHUB_ENDPOINT_S3: 'http://127.0.0.1:4568',
      GEOHUB_REQUEST_TIMEOUT_MS: '2500',
    });
    expect(config.endpoints.s3).toBe('http://127.0.0.1:4568');
    expect(config.requestTimeoutMs).toBe(2500);
  });

  it('fails fast with every problem named at once', () => {
    const attempt = () => loadConfig({ GEOHUB_BUCKET: 'Not_A_Bucket', GEOHUB_REQUEST_TIMEOUT_MS: '-1' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of [
        'GEOHUB_BUCKET',
        'GEOHUB_TABLE',
        'GEOHUB_QUEUE_URL',
        'GEOHUB_DLQ_URL',
        'GEOHUB_REQUEST_TIMEOUT_MS',
      ]) {
        expect(message).toContain(name);
      }
      expect((error as Error).name).toBe('ConfigError');
    }
  });

  it('rejects an endpoint that is not an http(s) URL', () => {
    expect(() => loadConfig({ ...minimal, GEOHUB_ENDPOINT_SQS: 'file:///etc/passwd' })).toThrow(
      /GEOHUB_ENDPOINT_SQS/,
    );
  });

  it('takes sub-tiles per message in 1..16, the most a message carries', () => {
    expect(loadConfig({ ...minimal, GEOHUB_TILES_PER_MESSAGE: '4' }).tilesPerMessage).toBe(4);
    expect(() => loadConfig({ ...minimal, GEOHUB_TILES_PER_MESSAGE: '17' })).toThrow(
      /GEOHUB_TILES_PER_MESSAGE/,
    );
    expect(() => loadConfig({ ...minimal, GEOHUB_TILES_PER_MESSAGE: '0' })).toThrow(
      /GEOHUB_TILES_PER_MESSAGE/,
    );
  });
});
