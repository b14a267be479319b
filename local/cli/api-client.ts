import { rm } from 'node:fs/promises';
import { newNonce, PROOF_PATH, provesSecret } from '../server/server-proof.js';
import { readUpToken, tokenFile } from '../server/up-token.js';
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

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
};

/**
 * The secret of the user's own `geohub up` on `port`, from the file only that user can read, once
 * the server on that port has shown it holds the same secret. A `geohub up` killed by SIGKILL (or
 * OOM, or a power cut) leaves its file behind, and another user may then listen on its port:
 * a dead pid makes the file stale (removed, said), and a live one must still answer a fresh
 * nonce with HMAC(secret, nonce) (server-proof.ts) before the token or a file is sent.
 */
export async function upSession(port: number, env?: NodeJS.ProcessEnv): Promise<{ token: string }> {
  const session = await readUpToken(port, env);
  if (!session) {
    throw new CliError(
      `no geohub up of yours answers on 127.0.0.1:${port} (it keeps its secret in a file only its user can read); start one with \`npx geohub up\``,
    );
  }
  if (!Number.isSafeInteger(session.pid) || !alive(session.pid)) {
    const file = tokenFile(port, env);
    await rm(file, { force: true });
    throw new CliError(
      `${file} was stale: the geohub up that wrote it (pid ${session.pid}) is gone, so it was removed; start one with \`npx geohub up\``,
    );
  }
  await checkServer(port, session.token, tokenFile(port, env));
  return session;
}

async function checkServer(port: number, token: string, file: string): Promise<void> {
  const nonce = newNonce();
  let proof: string | undefined;
  try {
    const r = await fetch(`http://127.0.0.1:${port}${PROOF_PATH}?nonce=${nonce}`, {
      signal: AbortSignal.timeout(30_000),
    });
    proof = ((await r.json().catch(() => ({}))) as { proof?: string }).proof;
  } catch (error) {
    throw requestFailed(port, ((error as Error).cause as Error | undefined) ?? (error as Error), error);
  }
  if (!provesSecret(token, nonce, proof)) {
    throw new CliError(
      `the server on 127.0.0.1:${port} is not the geohub up that wrote ${file}: it cannot prove it holds its secret, so nothing was sent to it`,
    );
  }
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
