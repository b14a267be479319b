import { readUpToken } from '../server/up-token.js';
import { CliError } from './cli-error.js';
import { intOption } from './io.js';

export const DEFAULT_PORT = 4747;

/** --port, else GEOHUB_PORT (checked as strictly as --port), else the default. */
export function portOf(env: NodeJS.ProcessEnv, option?: number): number {
  if (option !== undefined) return option;
  if (env.GEOHUB_PORT === undefined) return DEFAULT_PORT;
  try {
    return intOption(1, 65_535)(env.GEOHUB_PORT);
  } catch (error) {
    throw new CliError(`GEOHUB_PORT=${env.GEOHUB_PORT}: ${(error as Error).message}`, 1, { cause: error });
  }
}

/** The secret of the user's own `geohub up` on `port`, from the file only that user can read. */
export async function upSession(port: number, env?: NodeJS.ProcessEnv): Promise<{ token: string }> {
  const session = await readUpToken(port, env);
  if (!session) {
    throw new CliError(
      `no geohub up of yours answers on 127.0.0.1:${port} (it keeps its secret in a file only its user can read); start one with \`npx geohub up\``,
    );
  }
  return session;
}

/** A request that got no answer, in the user's terms. */
export function requestFailed(port: number, why: Error, cause: unknown = why): CliError {
  if ((why as NodeJS.ErrnoException).code === 'ECONNREFUSED') {
    return new CliError(`no geohub up answers on 127.0.0.1:${port}; start one with \`npx geohub up\``, 1, {
      cause,
    });
  }
  return new CliError(`the request to geohub up on 127.0.0.1:${port} failed: ${why.message}`, 1, { cause });
}

/** Calls the API of a running `geohub up`; a missing server is one clear line, not a stack. */
export async function callApi<T>(
  port: number,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<T> {
  const session = await upSession(port, options.env);
  // A POST always carries JSON: the API refuses state changes sent as anything else.
  // (A file goes up through upload-to-up.ts.)
  const payload = body ?? (method === 'POST' ? {} : undefined);
  const headers: Record<string, string> = { authorization: `Bearer ${session.token}` };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers,
      body: payload === undefined ? undefined : JSON.stringify(payload),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw requestFailed(port, ((error as Error).cause as Error | undefined) ?? (error as Error), error);
  }
  const value = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok) throw new CliError(value.error ?? `the API answered ${response.status}`);
  return value;
}
