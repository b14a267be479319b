import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PORT_PROPERTY, writeLoopbackConfiguration } from './dynamodb-loopback.js';

const SETPRIV = '/usr/bin/setpriv';

export interface DynamoJavaOptions {
  /** amplify-dynamodb-simulator's emulator directory (DynamoDBLocal.jar, DynamoDBLocal_lib). */
  readonly home: string;
  readonly port: number;
  /** Working directory's scratch: Java's temporary directory, and its loopback configuration. */
  readonly scratch: string;
  /** Class-data sharing: map this archive (with its jar), or write one at exit. */
  readonly classes?: { readonly jar: string } & ({ readonly archive: string } | { readonly dumpTo: string });
}

/** The command that runs DynamoDB Local: Java, behind setpriv so that Java dies with its parent. */
export function dynamoJavaCommand(options: DynamoJavaOptions): [string, ...string[]] {
  const { classes } = options;
  const java = [
    'java',
    // C1 only: a local stack lives for a run or a session, too short for C2's optimising
    // compiles to pay back. They cost DynamoDB Local about 1 CPU-s per small run on 2 cores
    // (2.0 → 0.9 CPU-s over a 256-sub-tile run, bench/profile-run.ts), and start-up too.
    '-XX:TieredStopAtLevel=1',
    // Class-data sharing (dynamodb-class-archive.ts): the classes of a previous start mapped
    // rather than loaded and verified again. An archive that does not fit this JVM is ignored
    // (-Xshare:auto, the default) and said nowhere: the start is only slower.
    ...(classes
      ? [
          'archive' in classes
            ? `-XX:SharedArchiveFile=${classes.archive}`
            : `-XX:ArchiveClassesAtExit=${classes.dumpTo}`,
          // Its warnings (old class files it cannot archive) are no one's business.
          '-Xlog:cds=off',
          '-Xlog:cds+dynamic=off',
        ]
      : []),
    // Its SQLite library is copied to a temporary file at start (sqlite-392-…-libsqlite4java.so),
    // in /tmp whatever TMPDIR says, and left there when Java is killed: keep it in the stack's
    // scratch, which goes with the stack.
    `-Djava.io.tmpdir=${options.scratch}`,
    `-Djava.library.path=${join(options.home, 'DynamoDBLocal_lib')}`,
    // An IPv4 socket: `ss -ltn` shows 127.0.0.1, not the IPv4-mapped ::ffff:127.0.0.1.
    '-Djava.net.preferIPv4Stack=true',
    // What DynamoDB Local's main sets before Jetty logs: no announcement, warnings only.
    '-Dorg.eclipse.jetty.util.log.announce=false',
    '-Dorg.eclipse.jetty.LEVEL=WARN',
    `-D${PORT_PROPERTY}=${options.port}`,
    '-cp',
    classes?.jar ?? join(options.home, 'DynamoDBLocal.jar'),
    // On 127.0.0.1 only (dynamodb-loopback.ts), in memory, with one database per access key id:
    // never -sharedDb, since the per-start key id is what keeps another local user out of the
    // ledger (docs/security.md).
    'org.eclipse.jetty.xml.XmlConfiguration',
    writeLoopbackConfiguration(options.scratch),
  ];
  // Java dies with its parent whatever kills it (SIGKILL included): the kernel's parent-death
  // signal, set by util-linux's setpriv before it execs Java.
  return existsSync(SETPRIV) ? [SETPRIV, '--pdeathsig', 'KILL', ...java] : (java as [string, ...string[]]);
}

/**
 * SIGTERM, then SIGKILL if Java has not exited within `graceMs`; resolves once it has exited.
 * A grace of 0 is SIGKILL at once: for an in-memory DynamoDB Local there is nothing to keep, and
 * its shutdown hooks (Jetty's stop, 350 classes loaded for it) take a third of a second; the
 * native library it leaves in its temporary directory goes with the stack's data directory.
 */
export function stopJava(java: ChildProcess, graceMs = 3_000): Promise<void> {
  return new Promise<void>((resolve) => {
    if (java.exitCode !== null || java.signalCode !== null) return resolve();
    java.removeAllListeners('exit');
    const timer = graceMs > 0 ? setTimeout(() => java.kill('SIGKILL'), graceMs) : undefined;
    timer?.unref();
    java.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    java.kill(graceMs > 0 ? 'SIGTERM' : 'SIGKILL');
  });
}
