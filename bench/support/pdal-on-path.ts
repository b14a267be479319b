import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A real PDAL on PATH for the bench, as `npm run test:pdal` finds one: the `pdal` already on
 * PATH, else the tarball of ../shared/tools unpacked into a scratch directory (removed by the
 * returned `dispose`). Undefined when neither is there: the bench then says so.
 */
export function pdalOnPath(root: string): { dispose: () => void } | undefined {
  try {
    execFileSync('pdal', ['--version'], { stdio: 'ignore' });
    return { dispose: () => {} };
  } catch {
    // Not on PATH: unpack it.
  }
  const tools = join(root, '../shared/tools');
  const tarball = existsSync(tools)
    ? readdirSync(tools).find((f) => /^pdal-.*-debian12-amd64\.tar\.xz$/.test(f))
    : undefined;
  if (!tarball) return undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'geohub-pdal-'));
  execFileSync('tar', ['-xJf', join(tools, tarball), '-C', scratch]);
  const bin = execFileSync('find', [scratch, '-path', '*/bin/pdal', '-type', 'f'], { encoding: 'utf8' })
    .split('\n')
    .find(Boolean);
  if (!bin) throw new Error(`${tarball} holds no bin/pdal`);
  const before = process.env.PATH;
  process.env.PATH = `${dirname(bin)}:${before}`;
  return {
    dispose: () => {
      process.env.PATH = before;
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
