import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../local/project-root.js';

/**
 * The direction of the tree's dependencies (docs/architecture.md, "Where does X live"): Biome
 * keeps the tree free of cycles and @aws-sdk inside the adapters, but its import patterns do not
 * see relative paths, so the folders' rules are checked here, on every import of every file.
 */
const root = projectRoot();

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'assets' ? [] : sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file (static, type-only and dynamic), as a path from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((s) => relative(root, resolve(dirname(join(root, file)), s)));
}

const edges = ['lib', 'worker', 'functions', 'local'].flatMap((dir) =>
  sources(dir).flatMap((from) => importsOf(from).map((to) => ({ from, to }))),
);
const under = (path: string, ...dirs: string[]) => dirs.some((d) => path === d || path.startsWith(`${d}/`));
const breaking = (from: string[], to: string[]) =>
  edges.filter((e) => under(e.from, ...from) && under(e.to, ...to)).map((e) => `${e.from} → ${e.to}`);

describe('the direction of dependencies', () => {
  it('reads the imports it judges (so an empty scan cannot pass)', () => {
    expect(edges.length).toBeGreaterThan(1_000);
    expect(edges).toContainEqual({ from: 'worker/main.ts', to: 'worker/run-worker.js' });
  });

  it('lib/ depends on nothing outside it', () => {
    expect(breaking(['lib'], ['worker', 'functions', 'local', 'bench', 'test', 'scripts'])).toEqual([]);
  });

  it('the AWS path (worker/, functions/) never depends on local/', () => {
    expect(breaking(['worker', 'functions'], ['local', 'bench', 'test'])).toEqual([]);
  });

  it('the stand-ins and the hub never depend on the page, the CLI or chaos', () => {
    const standIns = [
      'local/stack',
      'local/statemachine',
      'local/faults',
      'local/iam',
      'local/hub',
      'local/pool',
    ];
    expect(breaking(standIns, ['local/server', 'local/cli', 'local/chaos'])).toEqual([]);
  });
});
