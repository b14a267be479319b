import { type TileTask, tileTaskSchema } from '../model/tile.js';
import type { ObjectStore } from '../store/object-store.js';
import { ManifestCorruptError } from './errors.js';
import type { ManifestPart } from './manifest-ref.js';

/** Longest line a TileTask can make (z 24, 8-digit x and y: 59 bytes with its newline), rounded up. */
export const MAX_LINE_BYTES = 64;

export interface ManifestChunk {
  readonly tiles: TileTask[];
  /** Byte offset of the first line not returned (the part's size when it is exhausted). */
  readonly nextOffset: number;
  /** Byte offset just after each returned tile's line: where a read resumes after that tile. */
  readonly lineEnds: number[];
}

const NEWLINE = 0x0a;

/**
 * Up to `maxTiles` tasks from a manifest part, starting at byte `offset` (a line start), with
 * one ranged GET of at most `maxTiles × 64` bytes: memory per call is bounded whatever the part
 * size. Every line is validated; a bad one is a ManifestCorruptError naming its byte offset.
 */
export async function readManifestChunk(
  store: ObjectStore,
  part: ManifestPart,
  offset: number,
  maxTiles: number,
  signal?: AbortSignal,
): Promise<ManifestChunk> {
  if (offset >= part.bytes || maxTiles <= 0)
    return { tiles: [], nextOffset: Math.min(offset, part.bytes), lineEnds: [] };
  const end = Math.min(part.bytes, offset + maxTiles * MAX_LINE_BYTES);
  const bytes = await store.getRange(part.key, offset, end - 1, { signal });
  if (bytes.byteLength !== end - offset) {
    throw new ManifestCorruptError(
      `${part.key}: asked for bytes ${offset}-${end - 1}, got ${bytes.byteLength} (the part is not ${part.bytes} bytes)`,
    );
  }
  const tiles: TileTask[] = [];
  const lineEnds: number[] = [];
  let start = 0;
  while (tiles.length < maxTiles) {
    const newline = bytes.indexOf(NEWLINE, start);
    if (newline < 0) break;
    const line = Buffer.from(bytes.buffer, bytes.byteOffset + start, newline - start).toString('utf8');
    tiles.push(parseLine(line, part.key, offset + start));
    start = newline + 1;
    lineEnds.push(offset + start);
  }
  if (start === 0) {
    throw new ManifestCorruptError(
      `${part.key}: no complete line at byte ${offset} (lines end with a newline)`,
    );
  }
  return { tiles, nextOffset: offset + start, lineEnds };
}

function parseLine(line: string, key: string, at: number): TileTask {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    throw new ManifestCorruptError(`${key}: the line at byte ${at} is not JSON`, { cause: error });
  }
  const parsed = tileTaskSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ManifestCorruptError(
      `${key}: the line at byte ${at} is not a sub-tile: ${issue?.path.join('.') || '(line)'}: ${issue?.message}`,
      { cause: parsed.error },
    );
  }
  return parsed.data;
}
