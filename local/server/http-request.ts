import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { runIdSchema } from '../../lib/model/ids.js';
import { zodProblems } from '../../lib/model/zod-problems.js';
import { HttpError } from './errors.js';

const MAX_BODY = 64 * 1024;

/** A JSON request body, bounded in size. */
export async function body(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, 'request body too large');
    chunks.push(chunk as Buffer);
  }
  if (chunks.length === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
}

/** Validates a value with a schema; every problem in one 400 answer. */
export function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new HttpError(400, zodProblems(r.error, 'body'));
  return r.data;
}

/** A run id from a route, checked before any lookup (length included). */
export function runIdOf(m: RegExpMatchArray): string {
  const r = runIdSchema.safeParse(m[1]);
  if (!r.success) throw new HttpError(400, 'not a run id: a run id is 8 to 64 of [0-9a-z-]');
  return r.data;
}
