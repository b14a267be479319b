import { describe, expect, it } from 'vitest';
import { parseEnqueueRequest } from '../../../../lib/enqueue/enqueue-request.js';
import { InvalidEnqueueRequestError } from '../../../../lib/enqueue/errors.js';

const manifest = {
  runId: 'r-0123456789abcdef0123',
  total: 30,
  parts: [
    { key: 'runs/r/manifest-00000.jsonl', tiles: 20, bytes: 1000 },
    { key: 'runs/r/manifest-00001.jsonl', tiles: 10, bytes: 500 },
  ],
};

describe('parseEnqueueRequest', () => {
  it('accepts a first call without a cursor, and a later one with it', () => {
    expect(parseEnqueueRequest({ manifest }).cursor).toBeUndefined();
    expect(parseEnqueueRequest({ manifest, cursor: null }).cursor).toBeNull();
    expect(parseEnqueueRequest({ manifest, cursor: { part: 1, offset: 100, sent: 22 } }).cursor).toEqual({
      part: 1,
      offset: 100,
      sent: 22,
    });
  });

  it('ignores extra state the state machine carries along', () => {
    expect(parseEnqueueRequest({ manifest, runId: 'x', split: {} })).toEqual({ manifest });
  });

  it('rejects a cursor that does not fit the manifest', () => {
    expect(() => parseEnqueueRequest({ manifest, cursor: { part: 2, offset: 0, sent: 0 } })).toThrow(
      InvalidEnqueueRequestError,
    );
    expect(() => parseEnqueueRequest({ manifest, cursor: { part: 1, offset: 501, sent: 0 } })).toThrow(
      /cursor.offset: past the end of part 1/,
    );
    expect(() => parseEnqueueRequest({ manifest, cursor: { part: 0, offset: 0, sent: 31 } })).toThrow(
      /cursor.sent: more than the manifest total/,
    );
  });

  it('rejects a manifest whose parts do not add up', () => {
    expect(() => parseEnqueueRequest({ manifest: { ...manifest, total: 31 } })).toThrow(
      /manifest: the parts do not add up to the total/,
    );
  });
});
