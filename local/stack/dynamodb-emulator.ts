import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { dynamoHome, readyClassArchive } from './dynamodb-class-archive.js';
import { dynamoJavaCommand, stopJava } from './dynamodb-java.js';
import type { StartedEmulator } from './emulator-protocol.js';
import { StackStartError } from './errors.js';
import { freePort } from './free-port.js';
import { answersAsDynamoDb } from './service-probe.js';

const ATTEMPTS = 5;
/**
 * Between two readiness probes. DynamoDB Local's start is the cold run's critical path, and a
 * run waits on average half of this after Java listens; a probe before then is a refused
 * connection, nothing for a starting JVM to answer.
 */
const PROBE_MS = 25;
/** The whole start-up, retries included (under the stack's own start timeout). */
const START_MS = 150_000;
/**
 * What Jetty prints when the port was taken between our pick and its bind. DynamoDB Local does
 * not exit then: its JVM lives on, answering nothing, until killed.
 */
const PORT_TAKEN = /java\.net\.BindException|Address already in use/;

export interface StartDynamoOptions {
  readonly signal?: AbortSignal;
  /** A loopback port free right now (free-port.ts); tests hand out a taken one. */
  readonly pickPort?: () => Promise<number>;
}

interface Launched {
  readonly java: ChildProcess;
  /** Set when Java exited, failed to spawn, or said its port is taken: this attempt is over. */
  readonly over: () => string | undefined;
}

function launch(home: string, scratch: string, port: number): Launched {
  const [command, ...args] = dynamoJavaCommand({ home, port, scratch, classes: readyClassArchive(home) });
  const java = spawn(command, args, { cwd: scratch, stdio: ['ignore', 'ignore', 'pipe'] });
  let over: string | undefined;
  let tail = '';
  java.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk); // the stack keeps the wrapper's last lines for its error message
    tail = (tail + chunk.toString('utf8')).slice(-4096);
    if (over === undefined && PORT_TAKEN.test(tail)) over = `port ${port} was taken before Java bound it`;
  });
  java.once('exit', () => {
    over ??= `Java exited during start-up on port ${port}`;
  });
  java.once('error', (error) => {
    over = `java: ${error.message}`;
  });
  return { java, over: () => over };
}

/**
 * DynamoDB Local on a loopback port. It binds a port we pick, so another process may take it
 * first: we retry on a new port until DynamoDB itself — not whatever holds the port — answers.
 */
export async function startDynamo(
  dataDir: string,
  keyId: string,
  options: StartDynamoOptions = {},
): Promise<StartedEmulator> {
  const { signal, pickPort = freePort } = options;
  const home = dynamoHome();
  // DynamoDB Local writes a metadata file into its working directory: keep it in the stack's scratch.
  const cwd = join(dataDir, 'dynamodb');
  mkdirSync(cwd, { recursive: true });
  let lastProblem = '';
  // An attempt ends when Java exits or says its port was taken: that is when we retry. A live
  // Java is otherwise given until the deadline (a loaded machine starts it slowly).
  const deadline = Date.now() + START_MS;
  for (let attempt = 1; attempt <= ATTEMPTS && Date.now() < deadline; attempt += 1) {
    signal?.throwIfAborted();
    const port = await pickPort();
    const { java, over } = launch(home, cwd, port);
    while (over() === undefined && Date.now() < deadline && !signal?.aborted) {
      if (await answersAsDynamoDb(`http://127.0.0.1:${port}/`, keyId)) {
        java.once('exit', () => process.exit(1)); // without its Java server this wrapper has no reason to live
        return { port, stop: () => stopJava(java, 0) }; // in memory: nothing to keep (dynamodb-java.ts)
      }
      await new Promise((r) => setTimeout(r, PROBE_MS));
    }
    await stopJava(java, 0);
    signal?.throwIfAborted();
    lastProblem = over() ?? `no DynamoDB answer on port ${port} within ${START_MS / 1000} s`;
  }
  throw new StackStartError(`DynamoDB Local did not start after ${ATTEMPTS} attempts (${lastProblem})`);
}
