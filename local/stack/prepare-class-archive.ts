import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClassArchive, classArchiveFor, defaultCacheRoot } from './dynamodb-class-archive.js';
import { dynamoJavaCommand, stopJava } from './dynamodb-java.js';
import { StackStartError } from './errors.js';
import { exerciseDynamoDb } from './exercise-dynamodb.js';
import { freePort } from './free-port.js';
import { copyJarWithoutDirectories } from './jar-without-dot.js';
import { answersAsDynamoDb } from './service-probe.js';

const START_MS = 120_000;
const DUMP_MS = 60_000;

/**
 * Makes DynamoDB Local's class-data archive for this JVM, once: a copy of its jar that Java can
 * archive (jar-without-dot.ts), then one DynamoDB Local started on it until it answers, made to
 * serve a run's kinds of requests (exercise-dynamodb.ts), stopped, writing the classes it loaded
 * as it exits. Later starts map them (dynamodb-java.ts): measured on this machine under load, its
 * first answer 4.0–4.4 s → 1.7–2.9 s; with the libraries' classes in too, 1.6–2.2 s where the
 * archive without them took 2.4–2.9 s. Safe to run concurrently
 * (each maker writes files of its own, the first to finish is kept).
 */
export async function prepareClassArchive(
  home: string,
  cacheRoot = defaultCacheRoot(),
): Promise<{ made: boolean; archive: ClassArchive }> {
  const target = classArchiveFor(home, cacheRoot);
  if (!target) throw new StackStartError('no java on PATH');
  if (existsSync(target.jar) && existsSync(target.archive)) return { made: false, archive: target };
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  if (!existsSync(target.jar)) {
    await copyJarWithoutDirectories(join(home, 'DynamoDBLocal.jar'), `${target.jar}.${suffix}`);
    publish(`${target.jar}.${suffix}`, target.jar);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'geohub-cds-'));
  const dumpTo = `${target.archive}.${suffix}`;
  try {
    await train(home, target.jar, dumpTo, scratch);
    if (!statSync(dumpTo, { throwIfNoEntry: false })?.size)
      throw new StackStartError('Java wrote no archive at exit');
    publish(dumpTo, target.archive);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(dumpTo, { force: true });
  }
  return { made: true, archive: target };
}

async function train(home: string, jar: string, dumpTo: string, scratch: string): Promise<void> {
  const port = await freePort();
  const [command, ...args] = dynamoJavaCommand({ home, port, scratch, classes: { jar, dumpTo } });
  const java = spawn(command, args, { cwd: scratch, stdio: 'ignore' });
  try {
    const deadline = Date.now() + START_MS;
    while (!(await answersAsDynamoDb(`http://127.0.0.1:${port}/`, 'GHCDS'))) {
      if (java.exitCode !== null || java.signalCode !== null)
        throw new StackStartError('DynamoDB Local exited at start');
      if (Date.now() > deadline)
        throw new StackStartError(`DynamoDB Local did not answer within ${START_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await exerciseDynamoDb(`http://127.0.0.1:${port}/`, 'GHCDS');
  } finally {
    // The archive is written as Java exits on SIGTERM: give it the time to finish.
    await stopJava(java, DUMP_MS);
  }
}

/** Keeps the first of concurrent makers' files: a hard link fails where the file already is. */
function publish(made: string, target: string): void {
  try {
    linkSync(made, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(made, { force: true });
  }
}
