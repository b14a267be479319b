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
): Promise<T> {
  // A POST always carries JSON: the API refuses state changes sent as anything else.
  const payload = body ?? (method === 'POST' ? {} : undefined);
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: payload === undefined ? undefined : { 'content-type': 'application/json' },
      body: payload === undefined ? undefined : JSON.stringify(payload),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new CliError(`no geohub up answers on 127.0.0.1:${port}; start one with \`npx geohub up\``, 1, {
      cause: error,
    });
  }
  const value = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok) throw new CliError(value.error ?? `the API answered ${response.status}`);
  return value;
}
