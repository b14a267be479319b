import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Pixels {
  readonly width: number;
  readonly height: number;
  /** [r, g, b] at a pixel. */
  at(x: number, y: number): [number, number, number];
}

/** Decodes a PNG screenshot with GDAL (raw, pixel-interleaved), so tests can look at its pixels. */
export function decodePng(png: Uint8Array, dir: string): Pixels {
  const src = join(dir, 'shot.png');
  const raw = join(dir, 'shot.raw');
  writeFileSync(src, png);
  execFileSync('gdal_translate', ['-q', '-of', 'ENVI', '-co', 'INTERLEAVE=BIP', src, raw], {
    env: { ...process.env, GDAL_PAM_ENABLED: 'NO' },
  });
  const info = JSON.parse(execFileSync('gdalinfo', ['-json', src], { encoding: 'utf8' })) as {
    size: [number, number];
    bands: unknown[];
  };
  const [width, height] = info.size;
  const bands = info.bands.length;
  const bytes = readFileSync(raw);
  return {
    width,
    height,
    at: (x, y) => {
      const i = (Math.round(y) * width + Math.round(x)) * bands;
      return [bytes[i]!, bytes[i + 1]!, bytes[i + 2]!];
    },
  };
}

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Every pixel of a box (inset by `inset` pixels, clear of its outline), within the image. */
export function* pixelsIn(pixels: Pixels, box: Box, inset = 2): Generator<[number, number, number]> {
  const x0 = Math.max(0, Math.ceil(box.x + inset));
  const y0 = Math.max(0, Math.ceil(box.y + inset));
  const x1 = Math.min(pixels.width - 1, Math.floor(box.x + box.width - inset));
  const y1 = Math.min(pixels.height - 1, Math.floor(box.y + box.height - inset));
  for (let y = y0; y <= y1; y += 1) for (let x = x0; x <= x1; x += 1) yield pixels.at(x, y);
}

/**
 * How many different colours a box holds, the share of its pixels in its three most frequent
 * colours (near 1 for flat fills, whatever antialiased lines cross them), and the share of grey.
 */
export function colourFigures(pixels: Pixels, box: Box) {
  const colours = new Map<number, number>();
  const greys = new Set<number>();
  let grey = 0;
  let count = 0;
  for (const [r, g, b] of pixelsIn(pixels, box)) {
    count += 1;
    const key = (r << 16) | (g << 8) | b;
    colours.set(key, (colours.get(key) ?? 0) + 1);
    if (Math.abs(r - g) <= 3 && Math.abs(g - b) <= 3) {
      grey += 1;
      greys.add(r);
    }
  }
  const top3 = [...colours.values()]
    .sort((a, b) => b - a)
    .slice(0, 3)
    .reduce((sum, n) => sum + n, 0);
  return {
    colours: colours.size,
    top3Share: count ? top3 / count : 1,
    greyLevels: greys.size,
    greyShare: count ? grey / count : 0,
    count,
  };
}

/** Pixels of a box within `tolerance` of a colour given as #rrggbb. */
export function countColour(pixels: Pixels, box: Box, hex: string, tolerance = 3): number {
  const want = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (const p of pixelsIn(pixels, box)) if (p.every((v, i) => Math.abs(v - want[i]!) <= tolerance)) n += 1;
  return n;
}
