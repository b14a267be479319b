import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledEntry } from '../../../local/bundled-entry.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A built module and a bundle of it, the bundle `ageS` seconds older (negative: newer). */
function built(ageS: number | undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'geohub-bundled-'));
  dirs.push(dir);
  const module = join(dir, 'main.js');
  const bundle = join(dir, 'bundle.js');
  writeFileSync(module, '');
  const now = Date.now() / 1000;
  utimesSync(module, now, now);
  if (ageS !== undefined) {
    writeFileSync(bundle, '');
    utimesSync(bundle, now - ageS, now - ageS);
  }
  return { module: pathToFileURL(module), bundle: pathToFileURL(bundle) };
}

describe('bundledEntry', () => {
  it('the bundle when it is at least as new as the built module', () => {
    const same = built(0);
    expect(bundledEntry(same.module, same.bundle)).toBe(same.bundle);
    const newer = built(-5);
    expect(bundledEntry(newer.module, newer.bundle)).toBe(newer.bundle);
  });

  it('the module when the bundle is older (a `tsc` alone rebuilt the modules) or missing', () => {
    const stale = built(5);
    expect(bundledEntry(stale.module, stale.bundle)).toBe(stale.module);
    const none = built(undefined);
    expect(bundledEntry(none.module, none.bundle)).toBe(none.module);
  });

  it('the TypeScript source under tests, whatever bundle exists', () => {
    const b = built(-5);
    const source = new URL(b.module.href.replace(/\.js$/, '.ts'));
    writeFileSync(source, '');
    expect(bundledEntry(source, b.bundle)).toBe(source);
  });
});
