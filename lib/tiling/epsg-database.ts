import { brotliDecompressSync } from 'node:zlib';
import { EPSG_REGISTRY_ORIGIN, PACKED_EPSG_CHUNKS } from './epsg-registry-packed.js';

/**
 * The EPSG registry as the installed PROJ defines it (scripts/derive-crs-registry.py, from
 * proj.db: the versions are in EPSG_REGISTRY_ORIGIN): every EPSG CRS with the proj4 string of
 * PROJ's own default operation to WGS 84 when no grid file is present. Bundled whole into the
 * split Lambda, refusing a user's national CRS costs the user; packed
 * (scripts/pack-epsg-registry.mjs) and unpacked at the first lookup only, so a start that looks
 * nothing up does not pay for it (bench/split-bundle.ts). A lookup unpacks only the chunk of 256
 * codes holding its code (~1.5 ms).
 */
export { EPSG_REGISTRY_ORIGIN };

/** Where PROJ's best operation uses a grid proj4 does not have (docs/crs.md, "Grids"). */
export interface GridNote {
  /** PROJ's operation with the grid. */
  readonly op: string;
  readonly grids: readonly string[];
  /** Measured: the Helmert fallback's distance from the grid's answer at the area's centre (m). */
  readonly metres?: number;
  /** Not measured (the grid is not installed): the fallback's accuracy as EPSG states it (m). */
  readonly accuracy?: number;
}

export interface EpsgEntry {
  readonly code: number;
  /** CRS-PROJCRS, CRS-GEOGCRS, CRS-GEOG3DCRS, CRS-COMPOUNDCRS, CRS-VERTCRS, CRS-GCENCRS, … */
  readonly kind: string;
  readonly name: string;
  /** The horizontal CRS with PROJ's grid-free datum shift, or undefined when PROJ has no proj4 form. */
  readonly proj4: string | undefined;
  /** A geographic CRS's datum code (6326 for EPSG:4326). */
  readonly datum?: number;
  /** A geographic CRS's degrees per unit of its coordinates (0.9 for grads), when not 1. */
  readonly unit?: number;
  /**
   * PROJ's datum shift: `none`, `helmert`, `ballpark` (PROJ knows none and applies none),
   * `fitted: <method>` (an operation proj4 cannot express, as a Helmert fitted to PROJ's answers).
   */
  readonly shift?: string;
  /** PROJ's transformations, by name. */
  readonly via?: readonly string[];
  /** The operation's accuracy as EPSG states it, in metres (-1 when unknown). */
  readonly accuracy?: number;
  /** For a fitted shift: the largest residual of the fit, in metres. */
  readonly fit?: number;
  readonly grid?: GridNote;
}

type RawEntry = Omit<EpsgEntry, 'proj4'> & { readonly proj4?: string | null };

const chunks = new Map<number, ReadonlyMap<number, RawEntry>>();

function unpackChunk(index: number): ReadonlyMap<number, RawEntry> {
  let chunk = chunks.get(index);
  if (!chunk) {
    const text = brotliDecompressSync(Buffer.from(PACKED_EPSG_CHUNKS[index]![1], 'base64')).toString('utf8');
    const entries = text.split('\n').map((line) => JSON.parse(line) as RawEntry);
    chunk = new Map(entries.map((e) => [e.code, e]));
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
  return { ...raw, proj4: raw.proj4 ?? undefined };
}

/** Every code of the registry with the given kind (tests and benches draw samples from it). */
export function epsgCodes(kind: string): number[] {
  return PACKED_EPSG_CHUNKS.flatMap((_, i) =>
    [...unpackChunk(i).values()].filter((e) => e.kind === kind).map((e) => e.code),
  );
}
