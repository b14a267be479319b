import { type ChildProcess, spawn } from 'node:child_process';
import { killGroupNow } from '../../lib/process/terminate-group.js';
import { bundledEntry } from '../bundled-entry.js';
import { nodeEntry, siblingModule } from '../node-entry.js';
import type { EmulatorKind, EmulatorMessage } from './emulator-protocol.js';
import { StackStartError } from './errors.js';

export interface EmulatorProcess {
  readonly kind: EmulatorKind;
  readonly pid: number;
  readonly endpoint: string;
  readonly child: ChildProcess;
  /** Stops the emulator and resolves once its process has exited (SIGKILL after the grace). */
  stop(graceMs?: number): Promise<void>;
}

// Generous: DynamoDB Local's Java takes tens of seconds on a loaded machine.
const START_TIMEOUT_MS = 180_000;

/** Starts one emulator in its own process and waits until it answers on its port. */
export async function startEmulator(
  kind: EmulatorKind,
  dataDir: string,
  env: Readonly<Record<string, string>>,
  onMessage: (message: EmulatorMessage) => void = () => {},
): Promise<EmulatorProcess> {
  const entry = bundledEntry(
    siblingModule(import.meta.url, './emulator-main.js'),
    new URL('../../cli-bundle/emulator-main.js', import.meta.url),
  );
  // s3rver's ListObjectsV2 continuation tokens use DES, which OpenSSL 3 keeps in its legacy provider.
  const args = ['--openssl-legacy-provider', ...nodeEntry(entry), kind, dataDir];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, ...env },
    // A group of its own: a terminal's Ctrl-C goes to the CLI's group only, and the CLI stops
    // its emulators after the run is cancelled (docs/architecture.md#stopping).
    detached: true,
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  const stop = async (graceMs = 5_000): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer within ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      child.on('message', (message: EmulatorMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve(message.port);
        } else if (message.type === 'failed') {
          clearTimeout(timer);
          reject(new Error(message.message));
        }
        onMessage(message);
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited during start-up (${signal ?? code})`));
      });
    });
    if (child.pid === undefined) throw new StackStartError('no pid');
    return { kind, pid: child.pid, endpoint: `http://127.0.0.1:${port}`, child, stop };
  } catch (error) {
    await stop(1_000);
    // A wrapper stopped during its own start-up may not have taken its child (DynamoDB's Java)
    // with it; the child is in the wrapper's group.
    if (child.pid !== undefined) killGroupNow(child.pid);
    const detail = stderr.trim() ? `: ${stderr.trim().split('\n').slice(-5).join(' | ')}` : '';
    throw new StackStartError(`the ${kind} emulator did not start: ${(error as Error).message}${detail}`, {
      cause: error,
    });
  }
}
