import type { Metatile } from '../model/metatile.js';
import type { ObjectStore } from '../store/object-store.js';
import {
  MANIFEST_PART_LINES,
  type ManifestPart,
  type ManifestRef,
  manifestIndexKey,
  manifestPartKey,
} from './manifest-ref.js';

export interface WriteManifestOptions {
  readonly runId: string;
  /** Metatile lines per part (default MANIFEST_PART_LINES). */
  readonly partLines?: number;
  /** Sub-tiles per work message, recorded on the reference (absent: the maximum). */
  readonly tilesPerMessage?: number;
  readonly signal?: AbortSignal;
}

const CONTENT_TYPE = 'application/x-ndjson';

/**
 * Writes the metatiles as JSON Lines parts of at most `partLines` lines, one metatile per line,
 * then the ManifestRef as `manifest.json`. Metatiles are consumed lazily and at most two parts
 * exist in memory (one uploading, one being built), so a million tiles cost a few megabytes, not
 * a million-element string. Parts are whole objects because the ObjectStore has no multipart
 * upload; their content is deterministic, so a retried split rewrites them identically.
 */
export async function writeManifest(
  store: ObjectStore,
  metatiles: Iterable<Metatile>,
  options: WriteManifestOptions,
): Promise<ManifestRef> {
  const { runId, signal } = options;
  const partLines = Math.max(1, Math.floor(options.partLines ?? MANIFEST_PART_LINES));
  const parts: ManifestPart[] = [];
  let uploading: Promise<unknown> = Promise.resolve();
  let lines: string[] = [];
  let tiles = 0;

  const flush = async () => {
    const index = parts.length;
    const body = `${lines.join('\n')}\n`;
    const part: ManifestPart = { key: manifestPartKey(runId, index), tiles, bytes: Buffer.byteLength(body) };
    parts.push(part);
    lines = [];
    tiles = 0;
    // Wait for the previous upload before starting this one: at most one in flight.
    await uploading;
    uploading = store.putText(part.key, body, { contentType: CONTENT_TYPE, signal });
    // Surface a failure now rather than after building the next part; never leave it unhandled.
    uploading.catch(() => {});
  };

  for (const metatile of metatiles) {
    lines.push(JSON.stringify(metatile));
    tiles += metatile.tiles.length;
    if (lines.length >= partLines) await flush();
  }
  if (lines.length > 0) await flush();
  await uploading;

  const ref: ManifestRef = {
    runId,
    total: parts.reduce((n, p) => n + p.tiles, 0),
    parts,
    ...(options.tilesPerMessage ? { tilesPerMessage: options.tilesPerMessage } : {}),
  };
  await store.putText(manifestIndexKey(runId), JSON.stringify(ref), {
    contentType: 'application/json',
    signal,
  });
  return ref;
}
