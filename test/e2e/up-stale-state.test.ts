import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli, startCli } from '../support/cli.js';
import { processMark } from '../support/marked-processes.js';
import { tempDir } from '../support/temp-dir.js';
import { startUp } from '../support/up-session.js';

const RGB = new URL('../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * Another local user's server on `port`: it records every byte it is sent, answers a GET with a
 * forged proof and a POST (once its body is in) with a 500; prints its pid once listening and,
 * when its stdin closes, what it got.
 */
const LISTENER = `
  const got = [];
  const server = require('net').createServer((s) => {
    const c = { text: '' };
    got.push(c);
    s.on('error', () => {});
    s.on('data', (d) => {
      c.text += d.toString('latin1');
      const end = c.text.indexOf('\\r\\n\\r\\n');
      if (end < 0) return;
      const length = Number(/content-length: (\\d+)/i.exec(c.text.slice(0, end))?.[1] ?? 0);
      if (c.text.length - end - 4 < length) return;
      const body = c.text.startsWith('GET') ? '{"proof":"forged"}' : '{"error":"x"}';
      s.end('HTTP/1.1 ' + (c.text.startsWith('GET') ? '200 OK' : '500 Oops') + '\\r\\ncontent-type: application/json\\r\\nconnection: close\\r\\ncontent-length: ' + body.length + '\\r\\n\\r\\n' + body);
    });
  });
  server.listen(Number(process.argv[1]), '127.0.0.1', () => console.log(process.pid));
  process.stdin.resume();
  process.stdin.on('end', () => { console.log(JSON.stringify(got.map((c) => c.text.slice(0, 4000)))); process.exit(0); });
`;

function startListener(port: string): {
  child: ChildProcess;
  pid: Promise<number>;
  got: () => Promise<string[]>;
} {
  const child = spawn('runuser', ['-u', 'nobody', '--', process.execPath, '-e', LISTENER, port], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => (waiting.length ? waiting.shift()!(line) : queue.push(line)));
  const next = () =>
    new Promise<string>((resolve) => (queue.length ? resolve(queue.shift()!) : waiting.push(resolve)));
  return {
    child,
    pid: next().then(Number),
    got: async () => {
      child.stdin!.end();
      return JSON.parse(await next()) as string[];
    },
  };
}

describe('after a crash, the CLI sends nothing to whoever takes the port (issue 34 #3)', () => {
  it('a dead up’s token file is stale and removed; a server that cannot answer the challenge gets no byte of the file', async () => {
    const base = tempDir('geohub-stale-');
    const runtime = join(base, 'runtime');
    mkdirSync(runtime, { mode: 0o700 });
    const mark = processMark();
    // The up this test crashes leaves its temporary directories (the workers' scratch, the page's
    // render cache), as any crash does: they go with the test's own directory.
    const crashTmp = join(base, 'tmp');
    mkdirSync(crashTmp, { mode: 0o700 });
    const env = { ...mark.env, XDG_RUNTIME_DIR: runtime, TMPDIR: crashTmp };
    onTestFinished(() => {
      for (const line of mark.live()) {
        try {
          process.kill(Number(line.split(' ')[0]), 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
    });
    const up = await startUp(env);
    const tokenFile = join(runtime, 'geohub', `up-${up.port}.json`);
    const written = readFileSync(tokenFile, 'utf8');
    up.child.kill('SIGKILL');
    await up.done;
    expect(existsSync(tokenFile)).toBe(true); // a SIGKILL runs no exit hook
    const secret = join(base, 'secret.tif');
    copyFileSync(RGB, secret);
    chmodSync(secret, 0o600);

    const listener = startListener(up.port);
    const listenerPid = await listener.pid;
    onTestFinished(() => void listener.child.kill('SIGKILL'));
    // 1. The pid in the file is dead: stale, said and removed; the listener sees nothing.
    const stale = await runCli(['submit', secret, '--port', up.port], env);
    expect(stale.code).toBe(1);
    expect(stale.stderr.trim()).toBe(
      `geohub: ${tokenFile} was stale: the geohub up that wrote it (pid ${up.child.pid}) is gone, so it was removed; start one with \`npx geohub up\``,
    );
    expect(existsSync(tokenFile)).toBe(false);

    // 2. The file names a live pid (a reused one): the server must prove it holds the secret.
    writeFileSync(tokenFile, JSON.stringify({ ...JSON.parse(written), pid: listenerPid }), { mode: 0o600 });
    const forged = await runCli(['submit', secret, '--port', up.port], env);
    expect(forged.code).toBe(1);
    expect(forged.stderr.trim()).toBe(
      `geohub: the server on 127.0.0.1:${up.port} is not the geohub up that wrote ${tokenFile}: it cannot prove it holds its secret, so nothing was sent to it`,
    );
    const got = await listener.got();
    const { token } = JSON.parse(written) as { token: string };
    // One request, the challenge: no token, no POST, not a byte of the file.
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^GET \/api\/proof\?nonce=[A-Za-z0-9_-]{43} HTTP\/1\.1\r\n/);
    expect(got[0]).not.toContain(token);
    expect(got[0]).not.toMatch(/authorization|cookie/i);
    expect(got[0]!.length).toBeLessThan(1_000);
  }, 240_000);
});

describe('state directories are opened safely (issue 34 #4)', () => {
  it('a link planted in a shared runtime directory is refused, and its target keeps its mode', async () => {
    const shared = tempDir('geohub-shared-run-');
    chmodSync(shared, 0o777); // a shared runtime directory (XDG_RUNTIME_DIR=/tmp), not sticky
    const mine = tempDir('geohub-victim-');
    chmodSync(mine, 0o755);
    execFileSync('runuser', ['-u', 'nobody', '--', 'ln', '-s', mine, join(shared, 'geohub')]);
    const mark = processMark();
    const up = startCli(['up', '--port', '0', '--json'], { ...mark.env, XDG_RUNTIME_DIR: shared });
    // Before the fix it started: stop it then, as Ctrl-C does, so the check below is reached.
    createInterface({ input: up.child.stdout! }).once('line', () => up.child.kill('SIGINT'));
    const r = await up.done;
    expect(statSync(mine).mode & 0o777).toBe(0o755);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `geohub: ${join(shared, 'geohub')} is a symbolic link: refusing to keep geohub up's secret there (point XDG_RUNTIME_DIR at a directory only you can write)`,
    );
    expect(mark.live()).toEqual([]);
  }, 180_000);
});
