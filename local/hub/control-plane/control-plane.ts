import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiCall } from '../../iam/api-call.js';
import { type DeniedService, judge } from '../../iam/iam-gate.js';
import type { LocalIam } from '../../iam/local-iam.js';
import { requestKeyId } from '../../stack/stand-in-auth.js';
import type { LocalExecutions } from '../../statemachine/local-executions.js';
import { describeStacks, type LocalStackDescription } from './cloudformation-stand-in.js';
import { invokeFunction, type LocalFunction } from './lambda-stand-in.js';
import { stepFunctions } from './sfn-stand-in.js';
import type { StandInAnswer } from './stand-in-answer.js';

/** The largest request the control plane reads: a Lambda payload (6 MB) is the largest there is. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;

export interface ControlPlaneOptions {
  readonly stack: LocalStackDescription;
  readonly stateMachineArn: string;
  readonly executions: Pick<LocalExecutions, 'get' | 'stop'>;
  /** The functions an operator may invoke, by name. */
  readonly functions: Readonly<Record<string, LocalFunction>>;
  /** IAM, as in front of the data stand-ins; without it only the stack's key is let in. */
  readonly iam?: LocalIam;
  readonly stackKeyId: string;
}

export interface ControlPlane {
  /** One endpoint for CloudFormation, Step Functions and Lambda (AWS_ENDPOINT_URL_<SERVICE>). */
  readonly endpoint: string;
  close(): Promise<void>;
}

/** The service a SigV4 request is signed for: its credential scope's fourth part. */
const signedFor = (req: IncomingMessage) =>
  /Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\//.exec(String(req.headers.authorization ?? ''))?.[1];

const LAMBDA_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** The API call a request makes, by the service it is signed for and its protocol. */
function decode(service: string, req: IncomingMessage, body: Buffer): ApiCall {
  if (service === 'cloudformation') {
    const form = new URLSearchParams(body.toString('utf8'));
    return { service, operation: form.get('Action') ?? '', params: Object.fromEntries(form) };
  }
  if (service === 'states') {
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    return {
      service,
      operation,
      params: JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>,
    };
  }
  const name = LAMBDA_PATH.exec(new URL(req.url ?? '/', 'http://lambda').pathname)?.[1];
  if (req.method !== 'POST' || !name) throw new Error(`${req.method} ${req.url}`);
  return { service: 'lambda', operation: 'Invoke', params: { FunctionName: decodeURIComponent(name) } };
}

/**
 * What a deployed stack's control plane answers the CLI and the console (`--stage`), for the
 * local stand-ins: CloudFormation's DescribeStacks (the outputs), Step Functions' describe and
 * stop, Lambda's Invoke of the redrive function. Every call is decided by IAM first, as the data
 * stand-ins' are (local/iam/iam-gate.ts); a refusal is the service's AccessDenied.
 */
export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const answer = async (req: IncomingMessage, body: Buffer): Promise<StandInAnswer> => {
    const service = signedFor(req);
    if (service !== 'cloudformation' && service !== 'states' && service !== 'lambda') {
      return {
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: '{"message":"unsigned or unknown service"}',
      };
    }
    const keyId = requestKeyId(req.headers, req.url ?? '/');
    let call: ApiCall | undefined;
    if (options.iam) {
      const judged = await judge(options.iam, options.stackKeyId, service as DeniedService, keyId, () =>
        decode(service, req, body),
      );
      if ('deny' in judged) return judged.deny;
      call = judged.call;
    } else if (keyId !== options.stackKeyId) {
      return {
        status: 403,
        headers: { 'content-type': 'application/json' },
        body: '{"message":"forbidden"}',
      };
    }
    call ??= decode(service, req, body);
    if (call.service === 'cloudformation')
      return describeStacks(options.stack, new URLSearchParams(body.toString('utf8')));
    if (call.service === 'states')
      return stepFunctions(
        options.executions,
        options.stateMachineArn,
        call.operation,
        call.params as Record<string, unknown>,
      );
    return invokeFunction(options.functions, String(call.params.FunctionName), body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end();
        req.destroy();
      } else chunks.push(c);
    });
    req.once('end', () => {
      answer(req, Buffer.concat(chunks))
        .then((a) =>
          res.writeHead(a.status, { ...a.headers, 'content-length': Buffer.byteLength(a.body) }).end(a.body),
        )
        .catch((error: unknown) =>
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ message: (error as Error).message })),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
