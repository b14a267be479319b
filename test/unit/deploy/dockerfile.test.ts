import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
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
  it('starts tini as PID 1 and node under it, exec form, no shell in between; SIGTERM stops it', () => {
    const entrypoints = ops(final, 'ENTRYPOINT');
    expect(entrypoints).toHaveLength(1);
    expect(JSON.parse(entrypoints[0]!.args)).toEqual(['/usr/bin/tini', '--', 'node', '/app/main.js']);
    // A CMD would only add arguments; a shell-form one would wrap everything in /bin/sh -c.
    expect(ops(final, 'CMD')).toEqual([]);
    expect(ops(final, 'SHELL')).toEqual([]);
    for (const i of [...ops(final, 'ENTRYPOINT'), ...ops(final, 'CMD')])
      expect(i.args).not.toMatch(/\b(sh|bash)\b|-c\b/);
    expect(ops(final, 'STOPSIGNAL').map((i) => i.args)).toEqual(['SIGTERM']);
    // tini comes from the runtime's own packages, at a pinned version.
    expect(ops(final, 'RUN').some((r) => /apt-get install\b.*\btini=0\.19\.0-\*/.test(r.args))).toBe(true);
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

  it('builds from base images pinned to versions, never a floating tag', () => {
    const images = stages[0]!.filter((i) => i.op === 'ARG' && /_IMAGE=/.test(i.args)).map((i) => i.args);
    expect(images).toEqual([
      expect.stringMatching(/^NODE_IMAGE=node:22\.\d+\.\d+-trixie-slim$/),
      expect.stringMatching(/^MICROMAMBA_IMAGE=mambaorg\/micromamba:\d+\.\d+\.\d+-debian13-slim$/),
      'RUNTIME_IMAGE=debian:trixie-slim',
    ]);
    // Every stage starts from one of those (or an earlier stage), so nothing else is pulled.
    const names = new Set<string>();
    for (const stage of stages.slice(1)) {
      const [from, , name] = stage[0]!.args.split(/\s+/);
      expect(/^\$\{[A-Z_]+_IMAGE\}$/.test(from!) || names.has(from!), from).toBe(true);
      if (name) names.add(name);
    }
  });

  it('has GDAL and PDAL from conda-forge, pinned, in one environment copied whole into the runtime', () => {
    const env = parse(readFileSync(join(ROOT, 'worker', 'environment.yml'), 'utf8')) as {
      channels: string[];
      dependencies: string[];
    };
    expect(env.channels).toEqual(['conda-forge']);
    // PDAL links the very libgdal the gdal tools use: both pinned to exact versions.
    expect(env.dependencies).toContainEqual(expect.stringMatching(/^libgdal-core=\d+\.\d+\.\d+$/));
    expect(env.dependencies).toContainEqual(expect.stringMatching(/^libpdal-core=\d+\.\d+\.\d+$/));
    for (const dep of env.dependencies.filter((d) => d !== 'ca-certificates'))
      expect(dep, 'pinned').toMatch(/=\d+(\.\d+)+$/);

    const tools = stageNamed('tools')!;
    expect(tools[0]!.args).toMatch(/^\$\{MICROMAMBA_IMAGE\}/);
    expect(
      tools.some(
        (i) =>
          i.op === 'RUN' && /micromamba create .*--prefix \/opt\/geo --file .*environment\.yml/.test(i.args),
      ),
    ).toBe(true);
    // Same path in the runtime: a conda environment is not relocatable once installed.
    expect(ops(final, 'COPY').map((c) => c.args)).toContain('--from=tools /opt/geo /opt/geo');
    expect(ops(final, 'ENV').some((e) => /PATH=\/opt\/geo\/bin:/.test(e.args))).toBe(true);
    // No GDAL or PDAL from the distribution's packages: there is no PDAL there.
    for (const run of ops(final, 'RUN')) expect(run.args).not.toMatch(/apt-get install\b.*\b(gdal|pdal)/);
  });

  it('ships the worker as one bundle: no node_modules, no npm, only the node binary', () => {
    const copies = ops(final, 'COPY').map((c) => c.args);
    expect(copies).toContain('--from=bundle /bundle /app');
    expect(copies).toContain('--from=node /usr/local/bin/node /usr/local/bin/node');
    expect(copies.filter((c) => /node_modules|--from=node\s+\/usr\/local\/lib/.test(c))).toEqual([]);
    expect(ops(final, 'FROM')[0]!.args).toMatch(/^\$\{RUNTIME_IMAGE\}/);
    const bundle = stageNamed('bundle')!;
    expect(
      bundle.some((i) => i.op === 'RUN' && /node scripts\/bundle-worker\.mjs --outdir \/bundle/.test(i.args)),
    ).toBe(true);
    // /app/main.js is the bundle of worker/main.ts (the bundler's entry named "main").
    const bundler = readFileSync(join(ROOT, 'scripts', 'bundle-worker.mjs'), 'utf8');
    expect(bundler).toMatch(/main: 'worker\/main\.ts'/);
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
      const inContext = [...allowed].some(
        (a) => source.replace(/\/$/, '') === a || source.startsWith(`${a}/`),
      );
      expect(inContext, `${source} is in the build context`).toBe(true);
    }
    // The local stack's code is not even in the context.
    expect([...allowed].filter((a) => /^(local|functions|test|bench)$/.test(a))).toEqual([]);
  });
});
