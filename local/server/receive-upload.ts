import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { tileParamsSchema } from '../../lib/split/job-params.js';
import type { LocalHub } from '../hub/local-hub.js';
import { parse } from './http-request.js';

const uploadSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[^/\0]+$/, 'a file name, not a path'),
    zoom: z
      .string()
      .regex(/^[0-9]{1,2}$/, 'a whole number')
      .transform(Number)
      .pipe(tileParamsSchema.shape.zoom.unwrap())
      .optional(),
  })
  .strict();
/**
 * The request body is the file itself, streamed by `geohub submit` (running as the user who
 * can read it): the server never opens a path it is sent. It lands in a private temporary
 * directory, goes to the bucket by multipart upload, and is removed.
 */
export async function receiveUpload(hub: LocalHub, req: IncomingMessage, url: URL) {
  const { name, zoom } = parse(uploadSchema, Object.fromEntries(url.searchParams));
  const dir = await mkdtemp(join(tmpdir(), 'geohub-up-upload-'));
  try {
    const file = join(dir, 'source');
    await pipeline(req, createWriteStream(file, { mode: 0o600 }));
    return await hub.upload(file, { name, ...(zoom === undefined ? {} : { job: { zoom } }) });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
