import { brotliDecompressSync } from 'node:zlib';
import { PACKED_EPSG_REGISTRY } from './epsg-registry-packed.js';

/**
 * The EPSG registry as the `epsg-index` package ships it (every CRS with its proj4 definition,
 * datum shift included, and its WKT1). Bundled whole into the split Lambda, refusing a user's
 * national CRS costs the user; packed (scripts/pack-epsg-registry.mjs) and unpacked at the first
 * lookup only, so a start that looks nothing up does not pay for it (bench/split-bundle.ts).
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

let unpacked: Readonly<Record<string, RawEntry>> | undefined;
const registry = (): Readonly<Record<string, RawEntry>> =>
  (unpacked ??= JSON.parse(
    brotliDecompressSync(Buffer.from(PACKED_EPSG_REGISTRY, 'base64')).toString('utf8'),
  ));

/** The registry's entry for a code, or undefined when the registry has no such code. */
export function epsgEntry(code: number): EpsgEntry | undefined {
  const index = registry();
  const raw = Object.hasOwn(index, String(code)) ? index[String(code)] : undefined;
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
  return Object.values(registry())
    .filter((e) => e.kind === kind)
    .map((e) => Number(e.code));
}
