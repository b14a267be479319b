import { describe, expect, it } from 'vitest';
import { sourceGoneReason, sourcePin } from '../../../../lib/source/source-pin.js';
import { parseSplitRequest } from '../../../../lib/split/split-request.js';
import { uploadsOf } from '../../../../lib/trigger/s3-event.js';

const event = (object: Record<string, unknown>) => ({
  Records: [{ eventName: 'ObjectCreated:Put', s3: { bucket: { name: 'data-bucket' }, object } }],
});

describe('the run’s source version, from the upload’s S3 event', () => {
  it('carries the version id and the unquoted ETag of a versioned bucket’s upload', () => {
    const [upload] = uploadsOf(event({ key: 'incoming/a.tif', eTag: '"0123abcd"', versionId: 'v-42' }));
    expect(upload).toMatchObject({ version: 'v-42', etag: '0123abcd' });
    expect(
      sourcePin({ bucket: 'b', key: upload!.key, version: upload!.version, etag: upload!.etag }),
    ).toEqual({
      versionId: 'v-42',
      etag: '0123abcd',
    });
  });

  it('pins by ETag alone on an unversioned bucket (version id "null" or absent)', () => {
    for (const versionId of [undefined, 'null']) {
      const [upload] = uploadsOf(event({ key: 'incoming/a.tif', eTag: '0123abcd', versionId }));
      expect(upload).toMatchObject({ version: '0123abcd', etag: '0123abcd' });
      expect(sourcePin({ bucket: 'b', key: 'k', version: upload!.version, etag: upload!.etag })).toEqual({
        etag: '0123abcd',
      });
    }
  });

  it('leaves runs recorded without an ETag unpinned', () => {
    expect(sourcePin({ bucket: 'b', key: 'k', version: 'v1' })).toBeUndefined();
  });

  it('lets the ETag through the split request, and refuses anything else in its place', () => {
    const source = { bucket: 'data-bucket', key: 'incoming/a.tif', version: 'v1', etag: 'abc-2' };
    expect(parseSplitRequest({ source }).source.etag).toBe('abc-2');
    expect(() => parseSplitRequest({ source: { ...source, etag: '"x" --opt' } })).toThrow(/source\.etag/);
  });

  it('says in one line what is gone and what to do', () => {
    const reason = sourceGoneReason({ bucket: 'b', key: 'incoming/a.tif', version: 'v-42', etag: 'abc' });
    expect(reason).toBe(
      'source s3://b/incoming/a.tif (version v-42, ETag abc) was overwritten or deleted after the run started: ' +
        'its bytes are gone; upload the file again to start a new run',
    );
  });
});
