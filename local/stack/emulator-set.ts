import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markPhase } from '../../lib/log/phase-marks.js';
import { type EmulatorProcess, startEmulator } from './emulator-process.js';
import { EMULATOR_KINDS, type EmulatorMessage, type NotificationsMessage } from './emulator-protocol.js';
import { StackStartError } from './errors.js';
import { CREDENTIAL_ENV, newLocalCredentials } from './local-credentials.js';
import type { NotificationRule } from './s3-notification.js';

/**
 * The stack's emulator processes, all started at once: the first part of a stack's start, split
 * from the rest so that a caller can begin it before loading the code the rest needs (the CLI's
 * run starts DynamoDB Local's Java, the longest start, before the hub's ~900 modules load).
 * This module's own imports are few for that reason.
 */
export interface EmulatorSet {
  /** The stack's data directory (s3rver's objects, DynamoDB Local's scratch). */
  readonly dataDir: string;
  /** The per-start credentials the emulators accept (local-credentials.ts). */
  readonly credentialEnv: Readonly<Record<string, string>>;
  /** Each emulator's start, settled: all of them, or the first failure's reason. */
  readonly started: Promise<readonly EmulatorProcess[]>;
  /** Messages from the emulators (s3rver's event records), from the start on. */
  onMessage(listener: (message: EmulatorMessage) => void): void;
  /**
   * Sets the bucket's notification configuration on the S3 stand-in, once it has started, and
   * resolves when it holds: before then it sends no event (s3-emulator.ts).
   */
  setNotifications(rules: readonly NotificationRule[]): Promise<void>;
  /** Stops every emulator that started and removes the data directory; safe to call again. */
  stop(): Promise<void>;
}

const live = new Set<EmulatorProcess>();
const liveDirs = new Set<string>();
let exitHookInstalled = false;

// Last line of defence: whatever way this process exits, its emulators go with it.
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const emulator of live) {
      try {
        process.kill(emulator.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  });
}

export function startEmulators(): EmulatorSet {
  installExitHook();
  const dataDir = mkdtempSync(join(tmpdir(), 'geohub-s3-'));
  liveDirs.add(dataDir);
  const credentials = newLocalCredentials();
  const credentialEnv = {
    [CREDENTIAL_ENV.accessKeyId]: credentials.accessKeyId,
    [CREDENTIAL_ENV.secretAccessKey]: credentials.secretAccessKey,
  };
  const listeners: ((message: EmulatorMessage) => void)[] = [];
  const onMessage = (message: EmulatorMessage) => {
    for (const listener of listeners) listener(message);
  };
  const settled = Promise.allSettled(
    EMULATOR_KINDS.map((kind) =>
      startEmulator(kind, dataDir, credentialEnv, onMessage).then((emulator) => {
        markPhase(`emulator ${kind}: ready`);
        live.add(emulator);
        return emulator;
      }),
    ),
  );
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const emulators = (await settled).flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      await Promise.all(emulators.map((e) => e.stop()));
      for (const emulator of emulators) live.delete(emulator);
      rmSync(dataDir, { recursive: true, force: true });
      liveDirs.delete(dataDir);
    })();
    return stopping;
  };
  const started = settled.then((results) => {
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    return results.map((r) => (r as PromiseFulfilledResult<EmulatorProcess>).value);
  });
  started.catch(() => {}); // its owner awaits it; a start nobody awaits yet must not crash the process
  const setNotifications = async (rules: readonly NotificationRule[]) => {
    const { child } = (await started).find((e) => e.kind === 's3rver')!;
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: EmulatorMessage) => {
        if (message.type !== 'notifications-set') return;
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve();
      };
      const onExit = () => {
        child.off('message', onMessage);
        reject(new StackStartError('the s3rver emulator exited before its notifications were set'));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ type: 'notifications', rules } satisfies NotificationsMessage);
    });
  };
  return { dataDir, credentialEnv, started, onMessage: (l) => listeners.push(l), setNotifications, stop };
}
