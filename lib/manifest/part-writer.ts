import type { ObjectStore } from '../store/object-store.js';
import type { ManifestPart } from './manifest-ref.js';

const CONTENT_TYPE = 'application/x-ndjson';

/** Where a group of lines landed: its part, the byte offset of its first line, its length. */
export interface LinesPlace {
  readonly part: number;
  readonly offset: number;
  readonly bytes: number;
}

/**
 * Writes JSON Lines parts of about `partLines` lines each, a group of lines never split over two
 * parts (a pyramid block's lines are read back with one ranged GET). At most two parts are in
 * memory: one uploading, one being built. Parts are whole objects (the ObjectStore has no
 * multipart upload); their content is deterministic, so a retried split rewrites them identically.
 */
export class PartWriter {
  private readonly parts: ManifestPart[] = [];
  private lines: string[] = [];
  private bytes = 0;
  private tiles = 0;
  private uploading: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: ObjectStore,
    private readonly keyOf: (index: number) => string,
    private readonly partLines: number,
    private readonly signal?: AbortSignal,
  ) {}

  /** Adds a group of lines (`tiles` sub-tiles in all) to the current part, or to a fresh one. */
  async add(lines: readonly string[], tiles: number): Promise<LinesPlace> {
    if (this.lines.length > 0 && this.lines.length + lines.length > this.partLines) await this.flush();
    const offset = this.bytes;
    for (const line of lines) {
      this.lines.push(line);
      this.bytes += Buffer.byteLength(line) + 1;
    }
    this.tiles += tiles;
    return { part: this.parts.length, offset, bytes: this.bytes - offset };
  }

  /** Uploads what is left; resolves with every part once all are durable. */
  async finish(): Promise<ManifestPart[]> {
    if (this.lines.length > 0) await this.flush();
    await this.uploading;
    return this.parts;
  }

  private async flush(): Promise<void> {
    const body = `${this.lines.join('\n')}\n`;
    const part: ManifestPart = { key: this.keyOf(this.parts.length), tiles: this.tiles, bytes: this.bytes };
    this.parts.push(part);
    this.lines = [];
    this.bytes = 0;
    this.tiles = 0;
    // Wait for the previous upload before starting this one: at most one in flight.
    await this.uploading;
    this.uploading = this.store.putText(part.key, body, { contentType: CONTENT_TYPE, signal: this.signal });
    // Surface a failure at the next flush or at finish; never leave it unhandled.
    this.uploading.catch(() => {});
  }
}
