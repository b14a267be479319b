import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, expect, it, onTestFinished } from 'vitest';
import { nodeEntry } from '../../local/node-entry.js';
import { processMark } from '../support/marked-processes.js';
import { tempDir } from '../support/temp-dir.js';
import { waitUntil } from '../support/wait-until.js';

describe('an error nothing caught (issue 20 #3)', () => {
  it('prints one line, exits 1, and takes Java, the stand-ins, the workers and the temp dirs with it', async () => {
    const tmp = tempDir('geohub-tmp-');
    const mark = processMark();
    const child = spawn(
      process.execPath,
      nodeEntry(new URL('../support/crash-with-hub-main.ts', import.meta.url)),
      {
        env: { ...process.env, ...mark.env, TMPDIR: tmp },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    onTestFinished(() => {
      for (const line of mark.live()) {
        try {
          process.kill(Number(line.split(' ')[0]), 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', () => resolve());
      child.once('exit', (code) => reject(new Error(`exited before the hub started (${code}): ${stderr}`)));
    });
    expect(mark.live().some((p) => p.split(' ')[1] === 'java')).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin!.end('crash now\n');
    const code = await exited;
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('geohub: unexpected error: boom');
    // SIGKILLed by the exit hooks: the wrapper's Java follows through its parent-death signal.
    expect(await waitUntil(() => mark.live().length === 0, 15_000, 200)).toBe(true);
    // geohub's own temp dirs (tsx, which runs this TypeScript entry, keeps its cache there too).
    expect(readdirSync(tmp).filter((n) => n.startsWith('geohub-'))).toEqual([]);
  });
});
