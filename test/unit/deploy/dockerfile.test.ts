import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../local/project-root.js';

// The image is built and run by `npm run image` / `npm run test:image` (podman); these checks of
// the file itself hold where no container engine can be installed.
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

describe('worker/Dockerfile', () => {
  it('starts tini as PID 1 and node under it, exec form, no shell in between; SIGTERM stops it', () => {
    const entrypoints = ops(final, 'ENTRYPOINT');
    expect(entrypoints).toHaveLength(1);
    expect(JSON.parse(entrypoints[0]!.args)).toEqual(['/usr/bin/tini', '--', 'node', '/app/main.js']);
    // A CMD would only add arguments; a shell-form one would wrap everything in /bin/sh -c.
    expect(ops(final, 'CMD')).toEqual([]);
    expect(ops(final, 'SHELL')).toEqual([]);
    expect(ops(final, 'STOPSIGNAL').map((i) => i.args)).toEqual(['SIGTERM']);
  });

  it('runs as nobody, set after the last RUN, with /scratch its one writable volume', () => {
    const users = ops(final, 'USER');
    expect(users.at(-1)?.args).toBe('65534:65534');
    const index = (i: Instruction) => final.indexOf(i);
    expect(index(users.at(-1)!)).toBeGreaterThan(Math.max(...ops(final, 'RUN').map(index)));
    expect(ops(final, 'VOLUME').map((v) => JSON.parse(v.args))).toEqual([['/scratch']]);
    const env = ops(final, 'ENV')
      .map((e) => e.args)
      .join(' ');
    for (const name of ['GEOHUB_SCRATCH_DIR', 'HOME', 'TMPDIR', 'CPL_TMPDIR'])
      expect(env).toContain(`${name}=/scratch`);
  });

  it('installs Debian 12 packages at exact versions on a Debian 12 base given as an argument', () => {
    const args = new Map(
      all
        .filter((i) => i.op === 'ARG' && i.args.includes('='))
        .map((i) => i.args.split('=') as [string, string]),
    );
    expect(args.get('BASE_IMAGE')).toBe('docker.io/library/debian:bookworm-slim');
    expect(stages[1]![0]!.args).toBe(`\${BASE_IMAGE}`);
    const install = ops(final, 'RUN').find((r) => /apt-get install/.test(r.args))!.args;
    const packages = install.split(/\s+/).filter((w) => /^[a-z0-9.-]+=/.test(w));
    expect(packages.map((p) => p.split('=')[0])).toEqual([
      'gdal-bin',
      'python3-gdal',
      'tini',
      'ca-certificates',
    ]);
    for (const p of packages) {
      const version = /=\$\{(\w+)\}$/.exec(p)?.[1];
      expect(args.get(version!), p).toMatch(/^\d[\w.+~-]*$/);
    }
  });

  it('copies only what scripts/image.sh puts in the build context: the bundle, node, PDAL', () => {
    const sources = all.filter((i) => i.op === 'COPY' || i.op === 'ADD').map((i) => i.args.split(/\s+/)[0]);
    expect(sources.sort()).toEqual(['app', 'node', 'pdal.tar.xz']);
    const script = readFileSync(join(ROOT, 'scripts', 'image.sh'), 'utf8');
    expect(script).toMatch(/bundle-worker\.mjs --outdir "\$context\/app"/);
    expect(script).toMatch(/mv "\$context\/package\/bin\/node" "\$context\/node"/);
    expect(script).toMatch(/cp "\$PDAL_TARBALL" "\$context\/pdal\.tar\.xz"/);
    // /app/main.js is the bundle of worker/main.ts (the bundler's entry named "main").
    const bundler = readFileSync(join(ROOT, 'scripts', 'bundle-worker.mjs'), 'utf8');
    expect(bundler).toMatch(/main: 'worker\/main\.ts'/);
    expect(existsSync(join(ROOT, 'worker', 'tools', 'warp-metatile.py'))).toBe(true);
  });
});
