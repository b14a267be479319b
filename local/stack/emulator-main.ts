/**
 * Entry point of one emulator child process: `emulator-main <kind> <dataDir>`.
 *
 * Each emulator lives in its own process so that the parent can stop it by PID, and it
 * stops itself when the IPC channel to its parent closes: a parent that dies by SIGKILL
 * still leaves nothing running (the DynamoDB wrapper takes its Java child down with it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { encodeEventKey } from '../../lib/trigger/s3-event.js';
import { EMULATOR_KINDS, type EmulatorKind, type EmulatorMessage } from './emulator-protocol.js';

const require = createRequire(import.meta.url);

function send(message: EmulatorMessage): void {
  process.send?.(message);
}

async function freePort(): Promise<number> {
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

async function waitForHttp(url: string, timeoutMs: number, alive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error('the process exited during start-up');
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function startDynamo(dataDir: string): Promise<{ port: number; stop: () => Promise<void> }> {
  const home = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  const port = await freePort();
  // DynamoDB Local writes a metadata file into its working directory: keep it in the stack's scratch.
  const cwd = join(dataDir, 'dynamodb');
  mkdirSync(cwd, { recursive: true });
  const java: ChildProcess = spawn(
    'java',
    [
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(home, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-port',
      String(port),
      '-disableTelemetry',
    ],
    { cwd, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  let exited = false;
  java.once('exit', () => {
    exited = true;
    // Without its Java server this wrapper has no reason to live.
    process.exit(1);
  });
  java.once('error', (error) => send({ type: 'failed', message: `java: ${error.message}` }));
  await waitForHttp(`http://127.0.0.1:${port}/`, 30_000, () => !exited);
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        java.removeAllListeners('exit');
        java.once('exit', () => resolve());
        java.kill('SIGTERM');
        setTimeout(() => java.kill('SIGKILL'), 3_000).unref();
      }),
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

/** s3rver puts raw keys in its events; S3 URL-encodes them ('+' for a space). Do as S3 does. */
function encodeKey(record: unknown): unknown {
  const r = record as { s3?: { object?: { key?: string } } };
  const key = r.s3?.object?.key;
  if (typeof key !== 'string') return record;
  return { ...r, s3: { ...r.s3, object: { ...r.s3?.object, key: encodeEventKey(key) } } };
}

async function startS3(dataDir: string): Promise<{ port: number; stop: () => Promise<void> }> {
  const S3rver = require('s3rver') as new (
    options: object,
  ) => {
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
    on(event: 'event', listener: (event: { Records: unknown[] }) => void): void;
  };
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dataDir });
  server.on('event', (event) => {
    for (const record of event.Records) send({ type: 's3-event', record: encodeKey(record) });
  });
  const { port } = await server.run();
  return { port, stop: () => server.close() };
}

async function startSqs(): Promise<{ port: number; stop: () => Promise<void> }> {
  const { createSqsServer } = (await import('local-aws-sqs')) as typeof import('local-aws-sqs');
  const server = await createSqsServer({
    port: 0,
    hostname: '127.0.0.1',
    emulateQueueCreationLifecycle: false,
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the SQS server has no address');
  return { port: address.port, stop: () => closeServer(server) };
}

async function main(): Promise<void> {
  const kind = process.argv[2] as EmulatorKind;
  const dataDir = process.argv[3] ?? '';
  if (!EMULATOR_KINDS.includes(kind)) throw new Error(`unknown emulator kind ${String(kind)}`);
  const started =
    kind === 'dynamodb'
      ? await startDynamo(dataDir)
      : kind === 's3rver'
        ? await startS3(dataDir)
        : await startSqs();

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.race([started.stop(), new Promise((r) => setTimeout(r, 5_000))]);
    process.exit(code);
  };
  process.on('disconnect', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  send({ type: 'ready', port: started.port });
  if (!process.connected) await stop(0);
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
