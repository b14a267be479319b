import type { IncomingHttpHeaders } from 'node:http';
import type { InjectedAnswer } from '../faults/aws-error-shapes.js';
import type { RequestInfo } from '../faults/fault-decider.js';
import { requestKeyId } from '../stack/stand-in-auth.js';
import { accessDenied } from './access-denied.js';
import type { ApiCall } from './api-call.js';
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

/** The services whose refusals access-denied.ts shapes. */
export type DeniedService = Parameters<typeof accessDenied>[0];

export type IamGate = (request: RequestInfo) => Promise<GateVerdict>;

/** What IAM says of one call: refused (in its service's shape), or allowed for `principal`. */
export type Judgement =
  | { readonly deny: InjectedAnswer }
  | { readonly principal?: string; readonly call?: ApiCall };

/**
 * Decides one request to a stand-in: the key id names its principal, `decode` the API call, the
 * action table what the call needs, the evaluator whether the principal's policy allows it.
 * The stack's own key is the account's administrator: not checked (no principal, no call).
 */
export async function judge(
  iam: LocalIam,
  stackKeyId: string,
  service: DeniedService,
  keyId: string | undefined,
  decode: () => ApiCall,
  head = false,
): Promise<Judgement> {
  if (keyId === stackKeyId) return {};
  const principal = keyId ? iam.principalOf(keyId) : undefined;
  if (!principal) {
    return { deny: accessDenied(service, 'anonymous', { action: `${service}:*`, resource: '*' }, head) };
  }
  let needs: ReturnType<LocalIam['needs']>;
  let call: ApiCall;
  try {
    call = decode();
    needs = iam.needs(call);
  } catch (error) {
    const action = `${service}:${(error as Error).message}`;
    if (process.env.GEOHUB_IAM_TRACE) process.stderr.write(`IAM refused an unknown call: ${action}\n`);
    return { deny: accessDenied(service, iam.arnOf(principal), { action, resource: '*' }, head) };
  }
  const decision = await iam.authorizer.authorize(principal, needs);
  if (!decision.allowed) return { deny: accessDenied(service, iam.arnOf(principal), decision.denied!, head) };
  return { principal, call };
}

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
    const head = request.method.toUpperCase() === 'HEAD';
    const judged = await judge(iam, stackKeyId, service, keyId, () => decodeRequest(service, request), head);
    if ('deny' in judged) return { deny: judged.deny };
    const { principal, call } = judged;
    if (!principal || !call || !keyId) return { headers };
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
