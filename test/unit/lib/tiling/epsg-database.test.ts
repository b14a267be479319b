import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EPSG_REGISTRY_ORIGIN, epsgCodes, epsgEntry } from '../../../../lib/tiling/epsg-database.js';
import { PACKED_EPSG_REGISTRY_SHA256 } from '../../../../lib/tiling/epsg-registry-packed.js';

const registryFile = new URL('../../../../lib/tiling/epsg-registry.jsonl', import.meta.url);

describe('the EPSG registry', () => {
  it('is packed from the committed registry, every entry as derived, with the PROJ and EPSG versions it came from', () => {
    const text = readFileSync(registryFile);
    expect(PACKED_EPSG_REGISTRY_SHA256).toBe(createHash('sha256').update(text).digest('hex'));
    const [head, ...lines] = text.toString('utf8').trim().split('\n');
    const origin = JSON.parse(head!) as { proj: string; epsg: string; epsgDate: string };
    expect(EPSG_REGISTRY_ORIGIN).toEqual({ proj: origin.proj, epsg: origin.epsg, epsgDate: origin.epsgDate });
    expect(lines.length).toBeGreaterThan(7_000);
    for (const line of lines) {
      const raw = JSON.parse(line) as { code: number; proj4: string | null };
      expect(epsgEntry(raw.code)).toEqual({ ...raw, proj4: raw.proj4 ?? undefined });
    }
    const projected = epsgCodes('CRS-PROJCRS');
    expect(projected).toContain(2154);
  });

  it('serves EPSG codes only: ESRI codes are not EPSG codes', () => {
    // ESRI:54009 (Mollweide) and ESRI:102100 (Web Mercator) were served as EPSG codes by epsg-index.
    expect(epsgEntry(54009)).toBeUndefined();
    expect(epsgEntry(102100)).toBeUndefined();
    // EPSG's codes end at 32767; PROJ's database keeps one more, Web Mercator's old alias.
    const beyond = [...epsgCodes('CRS-PROJCRS'), ...epsgCodes('CRS-GEOGCRS')].filter((c) => c > 32_767);
    expect(beyond).toEqual([900913]);
  });

  it("carries PROJ's datum shift in position-vector convention, and its axes and units", () => {
    // RD New: EPSG's coordinate-frame rotations (Amersfoort to WGS 84 (4)) with their signs flipped.
    expect(epsgEntry(28992)?.proj4).toContain(
      '+towgs84=565.4171,50.3319,465.5524,-0.3989573882,0.3439878174,-1.87740164,4.0725',
    );
    expect(epsgEntry(28992)?.via).toEqual(['Amersfoort to WGS 84 (4)']);
    // NTF (Paris): grads, and the Paris meridian.
    expect(epsgEntry(4807)).toMatchObject({ unit: 0.9, datum: 6807 });
    expect(epsgEntry(4807)?.proj4).toContain('+pm=paris');
    // A South African Lo zone: westing, southing.
    expect(epsgEntry(2048)?.proj4).toContain('+axis=wsu');
    // DHDN / GK zone 3: PROJ's best operation uses BETA2007; the Helmert's error is measured.
    expect(epsgEntry(31467)?.grid).toMatchObject({
      grids: ['de_adv_BETA2007.tif'],
      metres: expect.any(Number),
    });
  });

  it('has no entry for a code it does not hold', () => {
    expect(epsgEntry(1)).toBeUndefined();
    expect(epsgEntry(Number.NaN)).toBeUndefined();
    // Around and between the packed chunks (code order): below the first, past the last, not whole.
    expect(epsgEntry(-4326)).toBeUndefined();
    expect(epsgEntry(10_000_000)).toBeUndefined();
    expect(epsgEntry(4326.5)).toBeUndefined();
    // An Object.prototype name is not a code.
    expect(epsgEntry('constructor' as unknown as number)).toBeUndefined();
  });
});
