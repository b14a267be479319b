/**
 * Entry point of one emulator child process: `emulator-main <kind> <dataDir>`, with the
 * stack's per-start credentials in its environment.
 *
 * Each emulator lives in its own process (and process group, so a terminal's Ctrl-C reaches
 * only the CLI, which stops it in order), and stops itself when the IPC channel to its parent
 * closes: a parent that dies by SIGKILL still leaves nothing running. The s3rver child owns
 * the stack's data directory and removes it when it stops, whoever stops it.
 */
import { rmSync } from 'node:fs';
import {
  EMULATOR_KINDS,
  type EmulatorKind,
  type EmulatorMessage,
  type NotificationsMessage,
  type StartedEmulator,
} from './emulator-protocol.js';
import { StackStartError } from './errors.js';
import { credentialsFromEnv } from './local-credentials.js';
import type { StartedS3 } from './s3-emulator.js';

// Files may still appear in the data directory while it is removed (a JVM that is being stopped):
// a removal that meets one tries again instead of failing and leaving the directory behind.
const removeDataDir = (dataDir: string) =>
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });

/** Set once the parent is gone (its IPC channel closed), from the first moment of the start. */
const parentGone = new AbortController();
process.once('disconnect', () => parentGone.abort());

function send(message: EmulatorMessage): void {
  if (process.connected) process.send?.(message);
}

/** The S3 stand-in takes its bucket's notification configuration from the parent (emulator-set.ts). */
function withNotifications(s3: StartedS3): StartedEmulator {
  process.on('message', (message: NotificationsMessage) => {
    if (message.type !== 'notifications') return;
    s3.setNotifications(message.rules);
    send({ type: 'notifications-set' });
  });
  return s3;
}

async function main(): Promise<void> {
  const kind = process.argv[2] as EmulatorKind;
  const dataDir = process.argv[3] ?? '';
  if (!EMULATOR_KINDS.includes(kind)) throw new StackStartError(`unknown emulator kind ${String(kind)}`);
  const credentials = credentialsFromEnv(process.env);
  // A parent that dies while this one starts (DynamoDB Local's JVM may take long on a loaded
  // machine) ends the start too: the s3rver stand-in removes the data directory as it goes, and a
  // JVM without its temporary directory never answers, so the wait would last the whole deadline.
  // The start abandoned, the data directory goes too (see the catch below).
  // Each loads its own emulator's code only: DynamoDB Local's wrapper starts Java (the stack's
  // longest start) without first loading s3rver's Koa and the SQS stand-in.
  const started: StartedEmulator =
    kind === 'dynamodb'
      ? await (await import('./dynamodb-emulator.js')).startDynamo(dataDir, credentials.accessKeyId, {
          signal: parentGone.signal,
        })
      : kind === 's3rver'
        ? withNotifications(
            await (await import('./s3-emulator.js')).startS3(dataDir, credentials, (record) =>
              send({ type: 's3-event', record }),
            ),
          )
        : await (await import('./sqs-emulator.js')).startSqs(credentials.accessKeyId);

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.race([started.stop(), new Promise((r) => setTimeout(r, 5_000))]);
    if (kind === 's3rver') removeDataDir(dataDir);
    process.exit(code);
  };
  process.on('disconnect', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  send({ type: 'ready', port: started.port });
  if (!process.connected) await stop(0);
}

main().catch((error: unknown) => {
  // Nobody is left to remove the stack's data directory if the parent went during the start
  // (the s3rver stand-in may have removed it before this one's JVM stopped writing in it).
  if (parentGone.signal.aborted && process.argv[3]) removeDataDir(process.argv[3]);
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
