import type { IncomingHttpHeaders } from 'node:http';
import type { InjectedAnswer } from '../faults/aws-error-shapes.js';
import type { RequestInfo } from '../faults/fault-decider.js';
import { requestKeyId } from '../stack/stand-in-auth.js';
import { accessDenied } from './access-denied.js';
import { decodeRequest } from './decode-request.js';
import type { LocalIam } from './local-iam.js';

/**
 * What the gate does with one request: refuse it, or let it through as the stand-in's own key;
 * `missing` says what to answer instead if the stand-in finds no such object (S3's 404 rule).
 */
export type GateVerdict =
  | { readonly deny: InjectedAnswer }
  | {
      readonly headers: IncomingHttpHeaders;
      readonly missing?: () => Promise<InjectedAnswer | undefined>;
    };

/** The object reads whose answer for a missing key depends on s3:ListBucket. */
const READS = new Set(['GetObject', 'HeadObject']);

export type IamGate = (request: RequestInfo) => Promise<GateVerdict>;

/**
 * IAM in front of one stand-in: the request's key id names its principal, the action table
 * says what the call needs, the evaluator decides. An allowed request goes on under the
 * stack's own key id (the stand-ins know only that one; DynamoDB Local keeps a database per
 * key id). The stack's own key (provisioning, a test's set-up) is not checked: it is the
 * account's administrator, as whoever deploys the stack is.
 */
export function iamGate(service: 'dynamodb' | 's3' | 'sqs', iam: LocalIam, stackKeyId: string): IamGate {
  return async (request) => {
    const headers = request.headers as IncomingHttpHeaders;
    const keyId = requestKeyId(headers, request.url);
    if (keyId === stackKeyId) return { headers };
    const principal = keyId ? iam.principalOf(keyId) : undefined;
    const head = request.method.toUpperCase() === 'HEAD';
    if (!principal || !keyId) {
      return { deny: accessDenied(service, 'anonymous', { action: `${service}:*`, resource: '*' }, head) };
    }
    let needs: ReturnType<LocalIam['needs']>;
    let call: ReturnType<typeof decodeRequest>;
    try {
      call = decodeRequest(service, request);
      needs = iam.needs(call);
    } catch (error) {
      const action = `${service}:${(error as Error).message}`;
      if (process.env.GEOHUB_IAM_TRACE) process.stderr.write(`IAM refused an unknown call: ${action}\n`);
      return { deny: accessDenied(service, iam.arnOf(principal), { action, resource: '*' }, head) };
    }
    const decision = await iam.authorizer.authorize(principal, needs);
    if (!decision.allowed)
      return { deny: accessDenied(service, iam.arnOf(principal), decision.denied!, head) };
    const authorization = headers.authorization;
    // S3 answers a read of a missing key (or version) 404 only to a caller allowed s3:ListBucket
    // on the bucket, and 403 to any other: a role without it turns "not there" into AccessDenied.
    const missing =
      service === 's3' && READS.has(call.operation)
        ? async () => {
            const [list] = iam.needs({
              service: 's3',
              operation: 'ListObjectsV2',
              params: { Bucket: call.params.Bucket },
            });
            const listing = await iam.authorizer.authorize(principal, [list!]);
            return listing.allowed
              ? undefined
              : accessDenied('s3', iam.arnOf(principal), listing.denied!, head);
          }
        : undefined;
    return {
      ...(missing ? { missing } : {}),
      headers: {
        ...headers,
        ...(typeof authorization === 'string'
          ? { authorization: authorization.replace(`Credential=${keyId}/`, `Credential=${stackKeyId}/`) }
          : {}),
      },
    };
  };
}
