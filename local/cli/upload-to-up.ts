import { createReadStream } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { requestFailed, upSession } from './api-client.js';
import { CliError, EXIT_CANCELLED } from './cli-error.js';
import type { InputFile } from './input-file.js';

export interface UploadToUpOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Bytes of the file sent to `geohub up`. */
  readonly onSent?: (sent: number, total: number) => void;
  /** Bytes of it `geohub up` has stored in its bucket. */
  readonly onStored?: (stored: number, total: number) => void;
  /** The connection is given up after this long with nothing sent or received. */
  readonly idleMs?: number;
  /** Ctrl-C: the connection is closed, and `geohub up` drops what it has not yet stored. */
  readonly signal?: AbortSignal;
}

const readAll = async (res: IncomingMessage) => {
  let text = '';
  for await (const chunk of res) text += chunk;
  return text;
};

/**
 * Streams a file to `geohub up`'s /api/uploads and follows its answer: progress lines while the
 * server stores the file, then the outcome (receive-upload.ts). Not fetch(): an upload of any
 * size may take longer than fetch's fixed waits; here the only limit is a silent connection.
 */
export async function uploadToUp<T>(
  port: number,
  path: string,
  input: InputFile,
  options: UploadToUpOptions = {},
): Promise<T> {
  const { token } = await upSession(port, options.env);
  const idleMs = options.idleMs ?? 120_000;
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/octet-stream',
      'content-length': String(input.bytes),
    },
  });
  req.setTimeout(idleMs, () => req.destroy(new Error(`geohub up sent nothing for ${idleMs / 1000} s`)));
  const stop = () => req.destroy(new Error('cancelled'));
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) stop();
  let failure: Error | undefined;
  const answer = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.on('error', (error) => {
      failure ??= error;
      reject(error);
    });
  });
  async function* counted() {
    let sent = 0;
    for await (const chunk of createReadStream(input.path)) {
      sent += (chunk as Buffer).length;
      options.onSent?.(sent, input.bytes);
      yield chunk as Buffer;
    }
  }
  // A refusal may come before the whole body is sent: the answer counts, not the broken pipe.
  pipeline(counted(), req).catch(() => {});
  try {
    const res = await answer;
    if (res.statusCode !== 200) {
      const { error } = JSON.parse((await readAll(res)) || '{}') as { error?: string };
      throw new CliError(error ?? `the API answered ${res.statusCode}`);
    }
    let pending = '';
    try {
      for await (const chunk of res) {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          const value = JSON.parse(line) as { stored?: number; of?: number; error?: string };
          if (value.error !== undefined) throw new CliError(value.error);
          if (value.stored !== undefined) options.onStored?.(value.stored, value.of ?? input.bytes);
          else return value as T;
        }
      }
    } catch (error) {
      if (error instanceof CliError || !failure) throw error;
    }
    throw failure ?? new Error('the connection closed before the run started');
  } catch (error) {
    if (options.signal?.aborted) {
      throw new CliError(
        'cancelled: geohub up keeps nothing of an upload it had not stored; a run it had already started goes on (geohub status)',
        EXIT_CANCELLED,
        { cause: error },
      );
    }
    if (error instanceof CliError) throw error;
    throw requestFailed(port, failure ?? (error as Error));
  } finally {
    options.signal?.removeEventListener('abort', stop);
    req.destroy();
  }
}
