import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SOURCES = ['lib', 'worker', 'functions', 'local'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('no shell anywhere tools are run', () => {
  const files = SOURCES.flatMap((d) => sources(join(ROOT, d)));

  it('scans the whole product', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each([
    ['shell: true', /shell:\s*true/],
    [
      'child_process exec / execSync (they go through a shell)',
      /import\s*\{[^}]*\bexec(Sync)?\b[^}]*\}\s*from\s*['"](node:)?child_process['"]|child_process['"]\)\.exec/,
    ],
    ['a shell binary as the program', /(spawn|execa|execFile)\w*\(\s*['"](\/bin\/)?(ba)?sh['"]/],
    ['execa’s shell-parsing command form', /execaCommand|\$`/],
  ])('no %s in product code', (_what, pattern) => {
    const hits = files.filter((f) => pattern.test(readFileSync(f, 'utf8'))).map((f) => f.slice(ROOT.length));
    expect(hits).toEqual([]);
  });

  it('tools get argv arrays: every execa call passes its arguments as an array', () => {
    const calls = files.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/execa\(([^,]+),\s*([^,)]+)/g)].map((m) => m[2]!),
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const args of calls) expect(args.trim().startsWith('[')).toBe(true);
  });
});
