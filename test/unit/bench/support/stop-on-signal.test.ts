import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { waitUntil } from '../../../support/wait-until.js';

const MODULE = new URL('../../../../bench/support/stop-on-signal.ts', import.meta.url).href;

/** A bench stand-in: starts a daemon outside its memory (a `sleep`), registers its cleanups, says ready. */
function benchLike(dir: string) {
  const script = join(dir, 'bench.mts');
  writeFileSync(
    script,
    [
      `import { spawn } from 'node:child_process';`,
      `import { writeFileSync } from 'node:fs';`,
      `import { onSignalStop } from ${JSON.stringify(MODULE)};`,
      `const daemon = spawn('sleep', ['300'], { stdio: 'ignore' });`,
      `writeFileSync(${JSON.stringify(join(dir, 'daemon.pid'))}, String(daemon.pid));`,
      `onSignalStop(() => daemon.kill('SIGINT'));`,
      `onSignalStop(() => writeFileSync(${JSON.stringify(join(dir, 'cleaned'))}, 'yes'));`,
      `const forgotten = onSignalStop(() => writeFileSync(${JSON.stringify(join(dir, 'forgotten'))}, 'ran'));`,
      'forgotten();',
      `console.log('ready');`,
      'setInterval(() => {}, 1000);',
    ].join('\n'),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_c, s) => resolve(s)));
  const ready = new Promise<void>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', () => resolve()),
  );
  return { child, ended, ready };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a bench stopped by a signal to itself alone', () => {
  it('runs its cleanups (its daemon stopped, its scratch removed), then ends by that signal', async () => {
    const dir = tempDir('geohub-stop-on-signal-');
    const bench = benchLike(dir);
    await bench.ready;
    const daemon = Number(readFileSync(join(dir, 'daemon.pid'), 'utf8'));
    expect(alive(daemon)).toBe(true);
    bench.child.kill('SIGTERM');
    expect(await bench.ended).toBe('SIGTERM');
    expect(readFileSync(join(dir, 'cleaned'), 'utf8')).toBe('yes');
    expect(existsSync(join(dir, 'forgotten'))).toBe(false);
    // The daemon was its child: gone once it has been reaped (or is a zombie of init's).
    const gone = () => {
      try {
        return !alive(daemon) || readFileSync(`/proc/${daemon}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
      } catch {
        return true;
      }
    };
    expect(await waitUntil(gone, 10_000)).toBe(true);
  });
});
