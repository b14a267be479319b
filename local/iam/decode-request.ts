import type { RequestInfo } from '../faults/fault-decider.js';
import type { ApiCall } from './api-call.js';
import { UnknownOperationError } from './errors.js';

const header = (request: RequestInfo, name: string) => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

function jsonBody(request: RequestInfo): Record<string, unknown> {
  try {
    return JSON.parse(request.body.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** DynamoDB and SQS speak JSON 1.0: the operation in X-Amz-Target, the parameters in the body. */
function jsonCall(service: 'dynamodb' | 'sqs', request: RequestInfo): ApiCall {
  const target = header(request, 'x-amz-target') ?? '';
  const operation = target.split('.')[1];
  if (operation) return { service, operation, params: jsonBody(request) };
  // SQS's older query protocol: a form body with Action= and the parameters.
  const form = new URLSearchParams(request.body.toString('utf8'));
  const action = form.get('Action');
  if (service === 'sqs' && action) return { service, operation: action, params: Object.fromEntries(form) };
  throw new UnknownOperationError(`a ${service} request names no operation`);
}

/**
 * S3's REST API: the operation is the method, the path (path-style: /bucket/key) and the
 * sub-resource in the query string, as the S3 API Reference lists each request's syntax.
 */
function s3Call(request: RequestInfo): ApiCall {
  const url = new URL(request.url, 'http://s3.local');
  const q = url.searchParams;
  // The SDK names the operation in x-id (?x-id=GetObject); S3 ignores it, and so does IAM.
  q.delete('x-id');
  // The path as sent, not url.pathname: WHATWG URLs resolve "../" segments, S3 keeps them in
  // the key (incoming/../../x.tif is a key under incoming/, and its ARN is one too).
  const path = request.url.replace(/^[a-z]+:\/\/[^/]*/i, '').split('?')[0] ?? '';
  const [bucket = '', ...rest] = path.replace(/^\//, '').split('/');
  const Bucket = decodeURIComponent(bucket);
  const Key = rest.map(decodeURIComponent).join('/');
  const VersionId = q.get('versionId') ?? undefined;
  // A copy names its source in a header: `bucket/key`, URL-encoded, with `?versionId=` for a version.
  const copy = header(request, 'x-amz-copy-source');
  const [source = '', sourceQuery = ''] = (copy ?? '').replace(/^\//, '').split('?');
  const [sourceBucket = '', ...sourceKey] = source.split('/');
  const sourceVersion = new URLSearchParams(sourceQuery).get('versionId');
  const CopySource = copy
    ? {
        Bucket: decodeURIComponent(sourceBucket),
        Key: decodeURIComponent(sourceKey.join('/')),
        ...(sourceVersion ? { VersionId: sourceVersion } : {}),
      }
    : undefined;
  const params = {
    Bucket,
    ...(Key ? { Key } : {}),
    ...(VersionId ? { VersionId } : {}),
    ...(CopySource ? { CopySource } : {}),
  };
  const call = (operation: string): ApiCall => ({ service: 's3', operation, params });
  const method = request.method.toUpperCase();
  if (!Bucket) return call('ListBuckets');
  if (!Key) {
    if (method === 'GET') {
      if (q.get('list-type') === '2') return call('ListObjectsV2');
      if (q.has('versions')) return call('ListObjectVersions');
      if (q.has('uploads')) return call('ListMultipartUploads');
      if (q.has('location')) return call('GetBucketLocation');
      return call(
        [...q.keys()].every((k) => ['prefix', 'delimiter', 'marker', 'max-keys', 'encoding-type'].includes(k))
          ? 'ListObjects'
          : `GetBucket?${[...q.keys()].join('&')}`,
      );
    }
    if (method === 'HEAD') return call('HeadBucket');
    if (method === 'PUT' && [...q.keys()].length === 0) return call('CreateBucket');
    return call(`${method}Bucket?${[...q.keys()].join('&')}`);
  }
  switch (method) {
    case 'GET':
      if (q.has('uploadId')) return call('ListParts');
      if (
        [...q.keys()].some((k) =>
          ['acl', 'tagging', 'attributes', 'torrent', 'retention', 'legal-hold'].includes(k),
        )
      )
        return call(`GetObject?${[...q.keys()].join('&')}`);
      return call('GetObject');
    case 'HEAD':
      return call('HeadObject');
    case 'PUT':
      if (q.has('uploadId'))
        return call(header(request, 'x-amz-copy-source') ? 'UploadPartCopy' : 'UploadPart');
      if (header(request, 'x-amz-copy-source')) return call('CopyObject');
      if ([...q.keys()].length > 0) return call(`PutObject?${[...q.keys()].join('&')}`);
      return call('PutObject');
    case 'POST':
      if (q.has('uploads')) return call('CreateMultipartUpload');
      if (q.has('uploadId')) return call('CompleteMultipartUpload');
      return call(`PostObject?${[...q.keys()].join('&')}`);
    case 'DELETE':
      return call(q.has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject');
  }
  return call(method);
}

/** The API call an HTTP request to one of the stand-ins makes, for the action table. */
export function decodeRequest(service: 'dynamodb' | 's3' | 'sqs', request: RequestInfo): ApiCall {
  return service === 's3' ? s3Call(request) : jsonCall(service, request);
}
