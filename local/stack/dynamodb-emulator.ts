import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { dynamoHome, readyClassArchive } from './dynamodb-class-archive.js';
import { dynamoJavaCommand, stopJava } from './dynamodb-java.js';
import type { StartedEmulator } from './emulator-protocol.js';
import { freePort } from './free-port.js';
import { answersAsDynamoDb } from './service-probe.js';

const ATTEMPTS = 5;
/** The whole start-up, retries included (under the stack's own start timeout). */
const START_MS = 150_000;

function launch(home: string, scratch: string, port: number): ChildProcess {
  const [command, ...args] = dynamoJavaCommand({ home, port, scratch, classes: readyClassArchive(home) });
  return spawn(command, args, { cwd: scratch, stdio: ['ignore', 'ignore', 'inherit'] });
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
  const home = dynamoHome();
  // DynamoDB Local writes a metadata file into its working directory: keep it in the stack's scratch.
  const cwd = join(dataDir, 'dynamodb');
  mkdirSync(cwd, { recursive: true });
  let lastProblem = '';
  // Java exits at once when its port was taken meanwhile: that is when we retry. A live Java is
  // given until the deadline (a loaded machine starts it slowly).
  const deadline = Date.now() + START_MS;
  for (let attempt = 1; attempt <= ATTEMPTS && Date.now() < deadline; attempt += 1) {
    signal?.throwIfAborted();
    const port = await freePort();
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
        return { port, stop: () => stopJava(java, 0) }; // in memory: nothing to keep (dynamodb-java.ts)
      }
      await new Promise((r) => setTimeout(r, 100));
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
