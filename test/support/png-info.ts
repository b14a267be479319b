import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PngBand {
  readonly colorInterpretation: string;
  readonly minimum: number;
  readonly maximum: number;
  readonly stdDev: number;
}

/** A PNG's size and per-band statistics, read by GDAL (the oracle), with no side files left. */
export function pngInfo(png: Uint8Array, dir: string): { size: [number, number]; bands: PngBand[] } {
  const file = join(dir, `probe-${Date.now()}-${Math.random().toString(16).slice(2)}.png`);
  writeFileSync(file, png);
  const out = execFileSync('gdalinfo', ['-json', '-stats', file], {
    env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
    encoding: 'utf8',
  });
  const info = JSON.parse(out) as { size: [number, number]; bands: PngBand[] };
  return { size: info.size, bands: info.bands };
}
