import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { StartedEmulator } from './emulator-protocol.js';
import { answersAsDynamoDb } from './service-probe.js';

const require = createRequire(import.meta.url);
const SETPRIV = '/usr/bin/setpriv';
const ATTEMPTS = 5;
/** The whole start-up, retries included (under the stack's own start timeout). */
const START_MS = 150_000;

/** A port free right now. Java cannot report the port it bound, so the bind is checked after. */
async function candidatePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function launch(home: string, cwd: string, port: number): ChildProcess {
  const java = [
    'java',
    // C1 only: a local stack lives for a run or a session, too short for C2's optimising
    // compiles to pay back. They cost DynamoDB Local about 1 CPU-s per small run on 2 cores
    // (2.0 → 0.9 CPU-s over a 256-sub-tile run, bench/profile-run.ts), and start-up too.
    '-XX:TieredStopAtLevel=1',
    // Its SQLite library is copied to a temporary file at start (sqlite-392-…-libsqlite4java.so),
    // in /tmp whatever TMPDIR says, and left there when Java is killed: keep it in the stack's
    // scratch, which goes with the stack.
    `-Djava.io.tmpdir=${cwd}`,
    `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(home, 'DynamoDBLocal.jar'),
    // Never -sharedDb: without it DynamoDB Local keeps one database per access key id, and the
    // per-start key id is what keeps another local user out of the ledger (docs/architecture.md).
    '-inMemory',
    '-port',
    String(port),
    '-disableTelemetry',
  ];
  // Java dies with this wrapper whatever kills it (SIGKILL included): the kernel's parent-death
  // signal, set by util-linux's setpriv before it execs Java.
  const [command, ...args] = existsSync(SETPRIV) ? [SETPRIV, '--pdeathsig', 'KILL', ...java] : java;
  return spawn(command!, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * DynamoDB Local on a loopback port. It binds a port we pick, so another process may take it
 * first: we retry on a new port until DynamoDB itself — not whatever holds the port — answers.
 */
export async function startDynamo(
  dataDir: string,
  keyId: string,
  signal?: AbortSignal,
): Promise<StartedEmulator> {
  const home = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  // DynamoDB Local writes a metadata file into its working directory: keep it in the stack's scratch.
  const cwd = join(dataDir, 'dynamodb');
  mkdirSync(cwd, { recursive: true });
  let lastProblem = '';
  // Java exits at once when its port was taken meanwhile: that is when we retry. A live Java is
  // given until the deadline (a loaded machine starts it slowly).
  const deadline = Date.now() + START_MS;
  for (let attempt = 1; attempt <= ATTEMPTS && Date.now() < deadline; attempt += 1) {
    signal?.throwIfAborted();
    const port = await candidatePort();
    const java = launch(home, cwd, port);
    let exited = false;
    java.once('exit', () => {
      exited = true;
    });
    java.once('error', (error) => {
      exited = true;
      lastProblem = `java: ${error.message}`;
    });
    while (!exited && Date.now() < deadline && !signal?.aborted) {
      if (await answersAsDynamoDb(`http://127.0.0.1:${port}/`, keyId)) {
        java.once('exit', () => process.exit(1)); // without its Java server this wrapper has no reason to live
        return { port, stop: () => stopJava(java) };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    if (signal?.aborted) {
      await stopJava(java);
      signal.throwIfAborted();
    }
    if (!exited) {
      lastProblem = `no DynamoDB answer on port ${port} within ${START_MS / 1000} s`;
      await stopJava(java);
    } else if (!lastProblem.startsWith('java:')) {
      lastProblem = `Java exited during start-up on port ${port}`;
    }
  }
  throw new Error(`DynamoDB Local did not start after ${ATTEMPTS} attempts (${lastProblem})`);
}

function stopJava(java: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (java.exitCode !== null || java.signalCode !== null) return resolve();
    java.removeAllListeners('exit');
    java.once('exit', () => resolve());
    java.kill('SIGTERM');
    setTimeout(() => java.kill('SIGKILL'), 3_000).unref();
  });
}
