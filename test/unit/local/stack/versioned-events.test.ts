import { describe, expect, it } from 'vitest';
import { localVersionId, versionInBody, versionOfWrite } from '../../../../local/stack/versioned-events.js';

const ETAG = '"9b2cf535f27731c974343645a3985328"';
const version = localVersionId('data', 'incoming/1/a.tif', ETAG);

describe('the version a versioned bucket answers a write with (the one its event carries)', () => {
  it('names a PUT’s from its ETag header, and the same id the event names', () => {
    expect(
      versionOfWrite(
        { method: 'PUT', url: '/data/incoming/1/a.tif?x-id=PutObject' },
        { status: 200, etag: ETAG },
      ),
    ).toBe(version);
    // The event carries the ETag unquoted: the same version.
    expect(localVersionId('data', 'incoming/1/a.tif', ETAG.replace(/"/g, ''))).toBe(version);
  });

  it('names a completed multipart upload’s and a copy’s from the ETag in their XML body', () => {
    const body = `<CompleteMultipartUploadResult><ETag>&quot;${ETAG.slice(1, -1)}&quot;</ETag></CompleteMultipartUploadResult>`;
    expect(versionInBody('POST', '/data/incoming/1/a.tif?uploadId=u')).toBe(true);
    expect(
      versionOfWrite({ method: 'POST', url: '/data/incoming/1/a.tif?uploadId=u' }, { status: 200, body }),
    ).toBe(version);
    const copy = { method: 'PUT', url: '/data/incoming/1/a.tif', copySource: 'survey/a.tif' };
    expect(versionInBody(copy.method, copy.url, copy.copySource)).toBe(true);
    expect(
      versionOfWrite(copy, {
        status: 200,
        body: `<CopyObjectResult><ETag>${ETAG}</ETag></CopyObjectResult>`,
      }),
    ).toBe(version);
  });

  it('names none for a part, a sub-resource, a read or a failed write', () => {
    expect(
      versionOfWrite({ method: 'PUT', url: '/data/k?partNumber=1&uploadId=u' }, { status: 200, etag: ETAG }),
    ).toBeUndefined();
    expect(
      versionOfWrite({ method: 'PUT', url: '/data/k?tagging' }, { status: 200, etag: ETAG }),
    ).toBeUndefined();
    expect(versionOfWrite({ method: 'GET', url: '/data/k' }, { status: 200, etag: ETAG })).toBeUndefined();
    expect(versionOfWrite({ method: 'PUT', url: '/data/k' }, { status: 500, etag: ETAG })).toBeUndefined();
    expect(versionOfWrite({ method: 'PUT', url: '/data' }, { status: 200, etag: ETAG })).toBeUndefined();
  });
});
