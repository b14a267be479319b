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
 * True if the request names one of this stack's per-start access key ids (the stack's own, and
 * with IAM each principal's, derived from its secret). The stand-ins do not verify SigV4
 * signatures (s3rver only checks the key id; the SQS emulator checks nothing), so the key id
 * itself is the secret: it only travels over loopback and in the environment of the user's own
 * processes (docs/architecture.md#access).
 */
export function authorizedRequest(
  headers: IncomingHttpHeaders,
  url: string,
  keyIds: string | readonly string[],
): boolean {
  const given = requestKeyId(headers, url);
  if (!given) return false;
  const a = Buffer.from(given);
  // Every key compared, whichever matches: the time taken says nothing of which one is near.
  let known = false;
  for (const keyId of [keyIds].flat()) {
    const b = Buffer.from(keyId);
    if (a.length === b.length && timingSafeEqual(a, b)) known = true;
  }
  return known;
}
