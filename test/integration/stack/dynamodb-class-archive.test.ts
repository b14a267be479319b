import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { descendants } from '../../../lib/process/process-table.js';
import { dynamoHome } from '../../../local/stack/dynamodb-class-archive.js';
import { prepareClassArchive } from '../../../local/stack/prepare-class-archive.js';
import { startLocalStack } from '../../../local/stack/stack.js';

const home = dynamoHome();
/** A JVM's start, and DynamoDB Local's, on a machine loaded to ten times its cores. */
const JVM_MS = 150_000;
const SLOW_MS = 2 * JVM_MS + 30_000;
const cacheRoot = mkdtempSync(join(tmpdir(), 'geohub-cds-cache-'));
afterAll(() => rmSync(cacheRoot, { recursive: true, force: true }));

/**
 * Java run with the archive required (-Xshare:on): it refuses to start when the archive does not
 * map. Not synchronous: a JVM's start on a loaded machine took over a minute, and a synchronous
 * spawn holds the test's own timeout back until it returns (the loaded run of issue 33).
 */
const javaWithArchive = async (archive: string, jar: string, ...options: string[]) => {
  const r = await execa(
    'java',
    [
      '-Xshare:on',
      `-XX:SharedArchiveFile=${archive}`,
      ...options,
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-jar',
      jar,
      '-help',
    ],
    { reject: false, timeout: JVM_MS },
  );
  return { status: r.exitCode ?? null, stdout: r.stdout, stderr: r.stderr };
};

describe("DynamoDB Local's class-data archive", () => {
  it(
    'is made once per JVM, in the cache given, leaving no scratch behind',
    async () => {
      const first = await prepareClassArchive(home, cacheRoot);
      expect(first.made).toBe(true);
      expect(first.archive.archive.startsWith(cacheRoot)).toBe(true);
      expect(statSync(first.archive.archive).size).toBeGreaterThan(1_000_000);
      const madeAt = statSync(first.archive.archive).mtimeMs;

      const again = await prepareClassArchive(home, cacheRoot);
      expect(again).toEqual({ made: false, archive: first.archive });
      expect(statSync(first.archive.archive).mtimeMs).toBe(madeAt);
      // Only the jar and the archive: no maker's leftovers next to them, no scratch in TMPDIR.
      expect(readdirSync(join(first.archive.archive, '..')).sort()).toEqual([
        'DynamoDBLocal.jar',
        'classes.jsa',
      ]);
      expect(
        readdirSync(tmpdir()).filter(
          (n) => n.startsWith('geohub-cds-') && !n.startsWith('geohub-cds-cache-'),
        ),
      ).toEqual([]);
    },
    SLOW_MS,
  );

  it(
    'maps into Java with its own jar, and with no other (so a stale pair is never used)',
    async () => {
      const { archive } = await prepareClassArchive(home, cacheRoot);
      const own = await javaWithArchive(archive.archive, archive.jar);
      expect(own.stderr).not.toMatch(/Unable to use shared archive/);
      expect(own.status).toBe(0);
      // The original jar lists "." in its class path: the archive does not fit it.
      const original = await javaWithArchive(archive.archive, join(home, 'DynamoDBLocal.jar'));
      expect(original.status).not.toBe(0);
      expect(original.stderr).toMatch(/shared class paths mismatch|Unable to use shared archive/);
    },
    SLOW_MS,
  );

  it(
    "holds the classes of DynamoDB Local's libraries, not only those of its own jar",
    async () => {
      const { archive } = await prepareClassArchive(home, cacheRoot);
      // Its command-line parser comes from a library jar (DynamoDBLocal_lib/commons-cli-*.jar).
      const run = await javaWithArchive(archive.archive, archive.jar, '-Xlog:class+load=info');
      expect(run.status).toBe(0);
      const parser = run.stdout.split('\n').filter((l) => l.includes(' org.apache.commons.cli.'));
      expect(parser.length).toBeGreaterThan(3);
      // All from the archive but the help's formatter: the archive holds what a server's start
      // loaded (its making), and only -help formats a help text.
      const loaded = parser.filter((l) => !l.includes('source: shared objects file'));
      expect(loaded.map((l) => l.split(' ')[1])).toEqual([
        'org.apache.commons.cli.HelpFormatter',
        'org.apache.commons.cli.HelpFormatter$OptionComparator',
      ]);
    },
    SLOW_MS,
  );

  it(
    "is what a local stack's DynamoDB Local maps once the project's cache has it",
    async () => {
      const { archive } = await prepareClassArchive(home); // what scripts/setup.sh does
      const stack = await startLocalStack();
      try {
        const java = stack.pids
          .flatMap((pid) => descendants(pid))
          .filter((pid) => {
            const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
            return cmdline.split('\0')[0]?.endsWith('java');
          });
        expect(java).toHaveLength(1);
        const maps = readFileSync(`/proc/${java[0]}/maps`, 'utf8');
        expect(maps).toContain(archive.archive);
      } finally {
        await stack.stop();
      }
    },
    SLOW_MS,
  );
});
