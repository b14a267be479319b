import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../lib/process/process-table.js';
import { runCli, startCli } from '../support/cli.js';
import { waitUntil } from '../support/wait-until.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

describe('geohub up with the production settings (long-poll wait 20 s, lease 60 s, request timeout 10 s)', () => {
  it('idle for 60 s: no request timeout or error in the workers’ logs; a run submitted after that succeeds', async () => {
    // --verbose puts the workers' own logs on stderr; nothing overrides the worker defaults.
    const up = startCli(['--verbose', 'up', '--port', '0', '--workers', '2', '--json']);
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: up.child.stdout! }).once('line', resolve);
        up.child.once(
          'exit',
          (code) =>
            void up.done.then((r) =>
              reject(new Error(`geohub up exited early (${code}): ${r.stderr.slice(-2_000)}`)),
            ),
        );
      });
      const ready = JSON.parse(line) as { url: string; workers: number[] };
      const port = String(new URL(ready.url).port);
      await new Promise((r) => setTimeout(r, 65_000));
      process.stdout.write('idle test: 65 s idle done, submitting\n');

      // A command that fails says why (its stderr), not that its empty stdout is not JSON.
      const cli = async <T>(...args: string[]): Promise<T> => {
        const r = await runCli([...args, '--port', port, '--json']);
        try {
          if (r.code === 0) return JSON.parse(r.stdout) as T;
        } catch {
          // told below, with what it printed
        }
        throw new Error(`geohub ${args[0]} exited ${r.code}: [${r.stdout}] ${r.stderr.slice(-2_000)}`);
      };
      const submitted = await cli<{ outcome: string; runId: string }>('submit', RGB);
      expect(submitted.outcome).toBe('started');
      const succeeded = await waitUntil(
        async () => (await cli<{ status: string }>('status', submitted.runId)).status === 'SUCCEEDED',
        300_000,
        1_000,
      );
      expect(succeeded).toBe(true);
      process.stdout.write('idle test: run succeeded, stopping geohub up\n');
      up.child.kill('SIGINT');
      const result = await up.done;
      expect(result.code).toBe(130); // Ctrl-C, as a shell reports it

      const logs = result.stderr
        .split('\n')
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        })
        .filter((l) => typeof l.worker === 'string');
      const started = logs.filter((l) => l.msg === 'worker started');
      expect(started.length).toBeGreaterThanOrEqual(2);
      // Idle long polls end empty after their 20 s wait: no timeout, no retry, no error at all.
      expect(
        logs.filter(
          (l) =>
            Number(l.level) >= 40 &&
            // The stop at the end is announced at warn level; anything else is a defect.
            !/^SIG(INT|TERM): /.test(String(l.msg)),
        ),
      ).toEqual([]);
      expect(result.stderr).not.toMatch(/TimeoutError|requestTimeout/);
      expect(ready.workers.filter(isAlive)).toEqual([]);
    } finally {
      // On a failure too, up stops as on Ctrl-C (its workers, stand-ins and temp dirs with it);
      // SIGKILL only if it does not exit in time.
      if (up.child.exitCode === null && up.child.signalCode === null) {
        up.child.kill('SIGINT');
        const timer = setTimeout(() => up.child.kill('SIGKILL'), 30_000);
        await up.done;
        clearTimeout(timer);
      }
    }
  }, 600_000);
});
