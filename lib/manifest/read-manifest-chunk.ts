import { MAX_MESSAGE_BYTES } from '../model/message.js';
import { type Metatile, metatileSchema } from '../model/metatile.js';
import { zodProblems } from '../model/zod-problems.js';
import type { ObjectStore } from '../store/object-store.js';
import { ManifestCorruptError } from './errors.js';
import type { ManifestPart } from './manifest-ref.js';

/**
 * Bytes read per wanted line: a metatile of 16 sub-tiles at zoom 24 is ~980 bytes. A line that
 * lists members is longer, so a read may return fewer lines than asked: callers loop anyway.
 */
export const LINE_BYTES = 1_024;

export interface ManifestChunk {
  readonly metatiles: Metatile[];
  /** Byte offset of the first line not returned (the part's size when it is exhausted). */
  readonly nextOffset: number;
  /** Byte offset just after each returned metatile's line: where a read resumes after it. */
  readonly lineEnds: number[];
}

const NEWLINE = 0x0a;

async function readBytes(
  store: ObjectStore,
  part: ManifestPart,
  offset: number,
  end: number,
  signal?: AbortSignal,
) {
  const bytes = await store.getRange(part.key, offset, end - 1, { signal });
  if (bytes.byteLength !== end - offset) {
    throw new ManifestCorruptError(
      `${part.key}: asked for bytes ${offset}-${end - 1}, got ${bytes.byteLength} (the part is not ${part.bytes} bytes)`,
    );
  }
  return bytes;
}

/**
 * Up to `maxLines` metatiles from a manifest part, starting at byte `offset` (a line start), with
 * one ranged GET of `maxLines × LINE_BYTES` bytes (two when a long line fills the first): memory
 * per call is bounded whatever the part size. Every line is validated; a bad one is a
 * ManifestCorruptError naming its byte offset. A line never exceeds a message's size.
 */
export async function readManifestChunk(
  store: ObjectStore,
  part: ManifestPart,
  offset: number,
  maxLines: number,
  signal?: AbortSignal,
): Promise<ManifestChunk> {
  if (offset >= part.bytes || maxLines <= 0)
    return { metatiles: [], nextOffset: Math.min(offset, part.bytes), lineEnds: [] };
  let end = Math.min(part.bytes, offset + maxLines * LINE_BYTES);
  let bytes = await readBytes(store, part, offset, end, signal);
  if (bytes.indexOf(NEWLINE) < 0 && end < part.bytes) {
    end = Math.min(part.bytes, offset + MAX_MESSAGE_BYTES + 1);
    bytes = await readBytes(store, part, offset, end, signal);
  }
  const metatiles: Metatile[] = [];
  const lineEnds: number[] = [];
  let start = 0;
  while (metatiles.length < maxLines) {
    const newline = bytes.indexOf(NEWLINE, start);
    if (newline < 0) break;
    const line = Buffer.from(bytes.buffer, bytes.byteOffset + start, newline - start).toString('utf8');
    metatiles.push(parseLine(line, part.key, offset + start));
    start = newline + 1;
    lineEnds.push(offset + start);
  }
  if (start === 0) {
    throw new ManifestCorruptError(
      `${part.key}: no complete line within ${end - offset} bytes of byte ${offset} (lines end with a newline)`,
    );
  }
  return { metatiles, nextOffset: offset + start, lineEnds };
}

function parseLine(line: string, key: string, at: number): Metatile {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    throw new ManifestCorruptError(`${key}: the line at byte ${at} is not JSON`, { cause: error });
  }
  const parsed = metatileSchema.safeParse(json);
  if (!parsed.success) {
    throw new ManifestCorruptError(
      `${key}: the line at byte ${at} is not a metatile: ${zodProblems(parsed.error, '(line)')}`,
      { cause: parsed.error },
    );
  }
  return parsed.data;
}
