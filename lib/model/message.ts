import { z } from 'zod';
import { runIdSchema } from './ids.js';
import { type Metatile, metatileSchema } from './metatile.js';
import { zodProblems } from './zod-problems.js';

/** Far below SQS's 256 KiB: a body this large is not one we wrote. */
export const MAX_MESSAGE_BYTES = 16 * 1024;

/**
 * The body of one work-queue message: one metatile of one run (its tiles, its members and its
 * pyramid links if any), as the manifest lists it but for the id, which the worker derives.
 */
export const tileMessageSchema = metatileSchema
  .omit({ id: true })
  .extend({ v: z.literal(1), runId: runIdSchema })
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
    return { ok: false, reason: `invalid message: ${zodProblems(parsed.error, '(body)')}` };
  }
  return { ok: true, message: parsed.data };
}

/** The one way a metatile becomes a message body: the enqueue, a re-drive and a re-send all use it. */
export function metatileMessage(
  runId: string,
  metatile: Pick<Metatile, 'tiles' | 'members' | 'up' | 'children'>,
): string {
  const message: TileMessage = {
    v: 1,
    runId,
    tiles: [...metatile.tiles],
    ...(metatile.members ? { members: [...metatile.members] } : {}),
    ...(metatile.up ? { up: metatile.up } : {}),
    ...(metatile.children ? { children: [...metatile.children] } : {}),
  };
  return JSON.stringify(message);
}
