import type { IncomingHttpHeaders } from 'node:http';
import type { InjectedAnswer } from '../faults/aws-error-shapes.js';
import type { RequestInfo } from '../faults/fault-decider.js';
import { requestKeyId } from '../stack/stand-in-auth.js';
import { accessDenied } from './access-denied.js';
import { decodeRequest } from './decode-request.js';
import type { LocalIam } from './local-iam.js';

/** What the gate does with one request: refuse it, or let it through as the stand-in's own key. */
export type GateVerdict = { readonly deny: InjectedAnswer } | { readonly headers: IncomingHttpHeaders };

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
    try {
      needs = iam.needs(decodeRequest(service, request));
    } catch (error) {
      const action = `${service}:${(error as Error).message}`;
      if (process.env.GEOHUB_IAM_TRACE) process.stderr.write(`IAM refused an unknown call: ${action}\n`);
      return { deny: accessDenied(service, iam.arnOf(principal), { action, resource: '*' }, head) };
    }
    const decision = await iam.authorizer.authorize(principal, needs);
    if (!decision.allowed)
      return { deny: accessDenied(service, iam.arnOf(principal), decision.denied!, head) };
    const authorization = headers.authorization;
    return {
      headers: {
        ...headers,
        ...(typeof authorization === 'string'
          ? { authorization: authorization.replace(`Credential=${keyId}/`, `Credential=${stackKeyId}/`) }
          : {}),
      },
    };
  };
}
