import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { epsgCodes, epsgEntry } from '../../../../lib/tiling/epsg-database.js';
import { PACKED_EPSG_REGISTRY_SHA256 } from '../../../../lib/tiling/epsg-registry-packed.js';

const allJson = createRequire(import.meta.url).resolve('epsg-index/all.json');

describe('the EPSG registry', () => {
  it("is packed from the installed epsg-index's all.json, every entry as it ships", () => {
    const text = readFileSync(allJson);
    expect(PACKED_EPSG_REGISTRY_SHA256).toBe(createHash('sha256').update(text).digest('hex'));
    const shipped = JSON.parse(text.toString('utf8')) as Record<
      string,
      { code: string; kind: string; name: string; wkt: string | null; proj4: string | null }
    >;
    const codes = Object.keys(shipped);
    expect(codes.length).toBeGreaterThan(8_000);
    for (const code of codes) {
      const raw = shipped[code]!;
      expect(epsgEntry(Number(code))).toEqual({
        code: Number(code),
        kind: raw.kind,
        name: raw.name,
        wkt: raw.wkt ?? undefined,
        proj4: raw.proj4 ?? undefined,
      });
    }
    const projected = epsgCodes('CRS-PROJCRS');
    expect(projected).toContain(2154);
    expect(projected.length).toBe(codes.filter((c) => shipped[c]!.kind === 'CRS-PROJCRS').length);
  });

  it('has no entry for a code it does not hold', () => {
    expect(epsgEntry(1)).toBeUndefined();
    expect(epsgEntry(Number.NaN)).toBeUndefined();
    // Around and between the packed chunks (code order): below the first, past the last, not whole.
    expect(epsgEntry(-4326)).toBeUndefined();
    expect(epsgEntry(10_000_000)).toBeUndefined();
    expect(epsgEntry(4326.5)).toBeUndefined();
    // An Object.prototype name is not a code (the registry is a plain object).
    expect(epsgEntry('constructor' as unknown as number)).toBeUndefined();
  });
});
