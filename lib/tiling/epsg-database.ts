import { brotliDecompressSync } from 'node:zlib';
import { PACKED_EPSG_CHUNKS } from './epsg-registry-packed.js';

/**
 * The EPSG registry as the `epsg-index` package ships it (every CRS with its proj4 definition,
 * datum shift included, and its WKT1). Bundled whole into the split Lambda, refusing a user's
 * national CRS costs the user; packed (scripts/pack-epsg-registry.mjs) and unpacked at the first
 * lookup only, so a start that looks nothing up does not pay for it (bench/split-bundle.ts). A
 * lookup unpacks only the chunk of 256 codes holding its code (~1.5 ms): unpacking and parsing
 * the whole registry took ~120 ms, once in the split and once in the finalize of every run.
 */
interface RawEntry {
  readonly code: string;
  readonly kind: string;
  readonly name: string;
  readonly wkt: string | null;
  readonly proj4: string | null;
}

export interface EpsgEntry {
  readonly code: number;
  /** epsg-index's kind: CRS-PROJCRS, CRS-GEOGCRS, CRS-GEOG3DCRS, CRS-COMPOUNDCRS, CRS-VERTCRS, … */
  readonly kind: string;
  readonly name: string;
  readonly wkt: string | undefined;
  readonly proj4: string | undefined;
}

const chunks = new Map<number, ReadonlyMap<number, RawEntry>>();

function unpackChunk(index: number): ReadonlyMap<number, RawEntry> {
  let chunk = chunks.get(index);
  if (!chunk) {
    const text = brotliDecompressSync(Buffer.from(PACKED_EPSG_CHUNKS[index]![1], 'base64')).toString('utf8');
    const entries = text.split('\n').map((line) => JSON.parse(line) as RawEntry);
    chunk = new Map(entries.map((e) => [Number(e.code), e]));
    chunks.set(index, chunk);
  }
  return chunk;
}

/** The chunk that holds `code` if the registry has it: the last whose first code is ≤ code. */
function chunkOf(code: number): number {
  let lo = 0;
  let hi = PACKED_EPSG_CHUNKS.length - 1;
  const first = PACKED_EPSG_CHUNKS[0];
  if (!first || code < first[0]) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (PACKED_EPSG_CHUNKS[mid]![0] <= code) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The registry's entry for a code, or undefined when the registry has no such code. */
export function epsgEntry(code: number): EpsgEntry | undefined {
  if (typeof code !== 'number' || !Number.isInteger(code)) return undefined;
  const index = chunkOf(code);
  const raw = index < 0 ? undefined : unpackChunk(index).get(code);
  if (!raw) return undefined;
  return {
    code,
    kind: raw.kind,
    name: raw.name,
    wkt: raw.wkt ?? undefined,
    proj4: raw.proj4 ?? undefined,
  };
}

/** Every code of the registry with the given kind (tests and benches draw samples from it). */
export function epsgCodes(kind: string): number[] {
  return PACKED_EPSG_CHUNKS.flatMap((_, i) =>
    [...unpackChunk(i).values()].filter((e) => e.kind === kind).map((e) => Number(e.code)),
  );
}
