import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../local/project-root.js';

// No Docker engine on these machines: the image is checked structurally here, built in CI/by hand.
const ROOT = projectRoot();

interface Instruction {
  readonly op: string;
  readonly args: string;
}

/** Dockerfile instructions, continuation lines joined, comments and the parser directive dropped. */
function parseDockerfile(text: string): Instruction[][] {
  const lines = text.split('\n').filter((l) => !/^\s*#/.test(l));
  const joined = lines.join('\n').replace(/\\\n/g, ' ');
  const instructions = joined
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [, op, args] = /^(\w+)\s+(.*)$/.exec(l) ?? [];
      if (!op) throw new Error(`not an instruction: ${l}`);
      return { op: op.toUpperCase(), args: args!.trim() };
    });
  const stages: Instruction[][] = [[]];
  for (const i of instructions) {
    if (i.op === 'FROM') stages.push([]);
    stages.at(-1)!.push(i);
  }
  return stages; // stages[0]: global ARGs before the first FROM
}

const dockerfile = readFileSync(join(ROOT, 'worker', 'Dockerfile'), 'utf8');
const stages = parseDockerfile(dockerfile);
const final = stages.at(-1)!;
const all = stages.flat();
const ops = (stage: Instruction[], op: string) => stage.filter((i) => i.op === op);
const stageNamed = (name: string) =>
  stages.find((s) => s[0]?.op === 'FROM' && new RegExp(`\\bAS\\s+${name}$`, 'i').test(s[0].args));

describe('worker/Dockerfile', () => {
  it('starts node directly with an exec-form ENTRYPOINT, no shell in between', () => {
    const entrypoints = ops(final, 'ENTRYPOINT');
    expect(entrypoints).toHaveLength(1);
    expect(JSON.parse(entrypoints[0]!.args)).toEqual(['node', 'dist/worker/main.js']);
    // A CMD would only add arguments; a shell-form one would wrap everything in /bin/sh -c.
    expect(ops(final, 'CMD')).toEqual([]);
    expect(ops(final, 'SHELL')).toEqual([]);
    for (const i of [...ops(final, 'ENTRYPOINT'), ...ops(final, 'CMD')])
      expect(i.args).not.toMatch(/\b(sh|bash)\b|-c\b/);
    expect(ops(final, 'STOPSIGNAL').map((i) => i.args)).toEqual(['SIGTERM']);
  });

  it('runs as a non-root user', () => {
    const users = ops(final, 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.args.split(':')[0]!;
    expect(user).not.toMatch(/^(root|0)$/);
    // The user is set after the last RUN (those need root) and before the entrypoint.
    const index = (i: Instruction) => final.indexOf(i);
    expect(index(users.at(-1)!)).toBeGreaterThan(Math.max(...ops(final, 'RUN').map(index)));
    expect(index(users.at(-1)!)).toBeLessThan(index(ops(final, 'ENTRYPOINT')[0]!));
    expect(ops(final, 'RUN').some((r) => new RegExp(`useradd\\b.*\\b${user}\\b`).test(r.args))).toBe(true);
  });

  it('has GDAL and PDAL from one distribution, and Node 22 from the official image', () => {
    const install = ops(final, 'RUN').find((r) => r.args.includes('apt-get install'));
    expect(install?.args).toMatch(/\bgdal-bin\b/);
    expect(install?.args).toMatch(/\bpdal\b/);
    const nodeStage = stageNamed('node');
    expect(nodeStage?.[0]?.args).toMatch(/^\$\{NODE_IMAGE\}|^node:22/);
    expect(stages[0]!.some((i) => i.op === 'ARG' && /^NODE_IMAGE=node:22-/.test(i.args))).toBe(true);
    expect(ops(final, 'COPY').some((c) => /--from=node\s+\/usr\/local\/bin\/node\b/.test(c.args))).toBe(true);
  });

  it("has GDAL's Python bindings and the metatile engine's script where the worker looks for it", () => {
    const install = ops(final, 'RUN').find((r) => r.args.includes('apt-get install'));
    expect(install?.args).toMatch(/\bpython3-gdal\b/);
    expect(install?.args).toMatch(/python3 -c 'from osgeo import gdal'/);
    // metatileCommand() finds it under the project root (/app, where package.json is).
    expect(ops(final, 'COPY').map((c) => c.args)).toContain('--from=build /app/worker/tools ./worker/tools');
    expect(existsSync(join(ROOT, 'worker', 'tools', 'warp-metatile.py'))).toBe(true);
    expect(ops(final, 'WORKDIR').at(-1)?.args).toBe('/app');
  });

  it('ships production dependencies (npm ci --omit=dev) and the compiled dist/', () => {
    expect(all.some((i) => i.op === 'RUN' && /npm ci\b.*--omit=dev/.test(i.args))).toBe(true);
    const copies = ops(final, 'COPY').map((c) => c.args);
    expect(copies).toContain('--from=build /app/dist ./dist');
    expect(copies).toContain('--from=deps /app/node_modules ./node_modules');
    // dist/worker/main.js is what tsc makes of worker/main.ts.
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: { outDir: string; rootDir: string };
    };
    expect(tsconfig.compilerOptions).toMatchObject({ outDir: 'dist', rootDir: '.' });
    expect(existsSync(join(ROOT, 'worker', 'main.ts'))).toBe(true);
    expect(
      stageNamed('build')?.some((i) => i.op === 'RUN' && /tsc -p tsconfig\.build\.json/.test(i.args)),
    ).toBe(true);
  });

  it('copies only files that exist and that the build context (.dockerignore) lets in', () => {
    const ignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(ignore[0]).toBe('*'); // an allow-list: node_modules, .serverless, .git, … stay out
    const allowed = new Set(
      ignore.filter((l) => l.startsWith('!')).map((l) => l.slice(1).replace(/\/$/, '')),
    );
    const sources = all
      .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(join(ROOT, source)), source).toBe(true);
      expect(allowed.has(source.replace(/\/$/, '')), `${source} is in the build context`).toBe(true);
    }
  });
});
