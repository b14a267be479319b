import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The access key id a SigV4 request names, from its Authorization header or (presigned URLs)
 * its X-Amz-Credential query parameter; undefined for an anonymous request.
 */
export function requestKeyId(headers: IncomingHttpHeaders, url: string): string | undefined {
  const header = headers.authorization;
  const fromHeader = typeof header === 'string' ? /Credential=([^/,\s]+)\//.exec(header)?.[1] : undefined;
  if (fromHeader) return fromHeader;
  const query = new URL(url, 'http://stand-in').searchParams.get('X-Amz-Credential');
  return query?.split('/')[0] || undefined;
}

/**
 * True if the request names this stack's per-start access key id. The stand-ins do not verify
 * SigV4 signatures (s3rver only checks the key id; the SQS emulator checks nothing), so the
 * key id itself is the secret: it only travels over loopback and in the environment of the
 * user's own processes (docs/architecture.md#access).
 */
export function authorizedRequest(headers: IncomingHttpHeaders, url: string, keyId: string): boolean {
  const given = requestKeyId(headers, url);
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(keyId);
  return a.length === b.length && timingSafeEqual(a, b);
}
