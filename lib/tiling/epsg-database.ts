import epsgIndex from 'epsg-index/all.json' with { type: 'json' };

/**
 * The EPSG registry as the `epsg-index` package ships it (every CRS with its proj4 definition,
 * datum shift included, and its WKT1). Bundled whole into the split Lambda: a few megabytes of
 * CRS data cost tens of milliseconds at cold start (bench/split-bundle.ts), refusing a user's
 * national CRS costs the user.
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

const index = epsgIndex as unknown as Readonly<Record<string, RawEntry>>;

/** The registry's entry for a code, or undefined when the registry has no such code. */
export function epsgEntry(code: number): EpsgEntry | undefined {
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
  return Object.values(index)
    .filter((e) => e.kind === kind)
    .map((e) => Number(e.code));
}
