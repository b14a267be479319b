import { tileIdFor } from '../model/ids.js';
import type { TileTask } from '../model/tile.js';
import type { ObjectStore } from '../store/object-store.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import {
  MANIFEST_PART_LINES,
  type ManifestPart,
  type ManifestRef,
  manifestIndexKey,
  manifestPartKey,
} from './manifest-ref.js';

export interface WriteManifestOptions {
  readonly runId: string;
  readonly operation: string;
  readonly paramsVersion: string;
  readonly partLines?: number;
  /** Sub-tiles per work message, recorded on the reference (absent: the maximum). */
  readonly tilesPerMessage?: number;
  readonly signal?: AbortSignal;
}

const CONTENT_TYPE = 'application/x-ndjson';

/**
 * Writes the sub-tiles as JSON Lines parts of at most `partLines` lines, each line a TileTask with
 * its deterministic id, then the ManifestRef as `manifest.json`. Tiles are consumed lazily and at
 * most two parts exist in memory (one uploading, one being built), so a million tiles cost a few
 * megabytes, not a million-element string. Parts are whole objects because the ObjectStore has
 * no multipart upload; their content is deterministic, so a retried split rewrites them identically.
 */
export async function writeManifest(
  store: ObjectStore,
  tiles: Iterable<TileCoord>,
  options: WriteManifestOptions,
): Promise<ManifestRef> {
  const { runId, operation, paramsVersion, signal } = options;
  const partLines = Math.max(1, Math.floor(options.partLines ?? MANIFEST_PART_LINES));
  const parts: ManifestPart[] = [];
  let uploading: Promise<unknown> = Promise.resolve();
  let lines: string[] = [];

  const flush = async () => {
    const index = parts.length;
    const body = `${lines.join('\n')}\n`;
    const part: ManifestPart = {
      key: manifestPartKey(runId, index),
      tiles: lines.length,
      bytes: Buffer.byteLength(body),
    };
    parts.push(part);
    lines = [];
    // Wait for the previous upload before starting this one: at most one in flight.
    await uploading;
    uploading = store.putText(part.key, body, { contentType: CONTENT_TYPE, signal });
    // Surface a failure now rather than after building the next part; never leave it unhandled.
    uploading.catch(() => {});
  };

  for (const tile of tiles) {
    const task: TileTask = {
      id: tileIdFor(runId, operation, paramsVersion, tile),
      z: tile.z,
      x: tile.x,
      y: tile.y,
    };
    lines.push(JSON.stringify(task));
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
