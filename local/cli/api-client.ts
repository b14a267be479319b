import { readUpToken } from '../server/up-token.js';
import { CliError } from './cli-error.js';

export const DEFAULT_PORT = 4747;

export function portOf(env: NodeJS.ProcessEnv, option?: number): number {
  return option ?? (env.GEOHUB_PORT ? Number(env.GEOHUB_PORT) : DEFAULT_PORT);
}

/** Calls the API of a running `geohub up`; a missing server is one clear line, not a stack. */
export async function callApi<T>(
  port: number,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options: { env?: NodeJS.ProcessEnv; stream?: { body: AsyncIterable<Uint8Array>; bytes: number } } = {},
): Promise<T> {
  const session = await readUpToken(port, options.env);
  if (!session) {
    throw new CliError(
      `no geohub up of yours answers on 127.0.0.1:${port} (it keeps its secret in a file only its user can read); start one with \`npx geohub up\``,
    );
  }
  // A POST always carries JSON (or the file itself): the API refuses state changes sent as anything else.
  const payload = body ?? (method === 'POST' ? {} : undefined);
  const headers: Record<string, string> = { authorization: `Bearer ${session.token}` };
  let requestBody: RequestInit['body'];
  if (options.stream) {
    headers['content-type'] = 'application/octet-stream';
    headers['content-length'] = String(options.stream.bytes);
    requestBody = options.stream.body as unknown as RequestInit['body'];
  } else if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    requestBody = JSON.stringify(payload);
  }
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers,
      body: requestBody,
      ...(options.stream ? { duplex: 'half' } : {}),
      // An upload takes as long as its size; any other call is quick.
      signal: options.stream ? undefined : AbortSignal.timeout(30_000),
    } as RequestInit);
  } catch (error) {
    const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ECONNREFUSED') {
      throw new CliError(`no geohub up answers on 127.0.0.1:${port}; start one with \`npx geohub up\``, 1, {
        cause: error,
      });
    }
    const why = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
    throw new CliError(`the request to geohub up on 127.0.0.1:${port} failed: ${why}`, 1, { cause: error });
  }
  const value = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok) throw new CliError(value.error ?? `the API answered ${response.status}`);
  return value;
}
