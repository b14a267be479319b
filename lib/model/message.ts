import { z } from 'zod';
import { runIdSchema } from './ids.js';
import { tileTaskSchema } from './tile.js';

/** Upper bound on sub-tiles per message: a metatile amortises SQS overhead, not more. */
export const MAX_TILES_PER_MESSAGE = 16;
/** Far below SQS's 256 KiB: a body this large is not one we wrote. */
export const MAX_MESSAGE_BYTES = 16 * 1024;

/** The body of one work-queue message: sub-tiles of one run. */
export const tileMessageSchema = z
  .object({
    v: z.literal(1),
    runId: runIdSchema,
    tiles: z.array(tileTaskSchema).min(1).max(MAX_TILES_PER_MESSAGE),
  })
  .strict();

export type TileMessage = z.infer<typeof tileMessageSchema>;

export type ParsedMessage = { ok: true; message: TileMessage } | { ok: false; reason: string };

/** Parses an untrusted body; never throws, so a malformed message is recorded, not crashed on. */
export function parseTileMessage(body: string | undefined): ParsedMessage {
  if (body === undefined || body.length === 0) return { ok: false, reason: 'empty message body' };
  if (Buffer.byteLength(body) > MAX_MESSAGE_BYTES) {
    return {
      ok: false,
      reason: `message body of ${Buffer.byteLength(body)} bytes exceeds ${MAX_MESSAGE_BYTES}`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'message body is not JSON' };
  }
  const parsed = tileMessageSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { ok: false, reason: `invalid message: ${first?.path.join('.') || '(body)'}: ${first?.message}` };
  }
  return { ok: true, message: parsed.data };
}

export function serializeTileMessage(message: TileMessage): string {
  return JSON.stringify(message);
}
