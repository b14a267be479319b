import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendants } from '../../../lib/process/process-table.js';
import { dynamoHome } from '../../../local/stack/dynamodb-class-archive.js';
import { prepareClassArchive } from '../../../local/stack/prepare-class-archive.js';
import { startLocalStack } from '../../../local/stack/stack.js';

const home = dynamoHome();
const cacheRoot = mkdtempSync(join(tmpdir(), 'geohub-cds-cache-'));
afterAll(() => rmSync(cacheRoot, { recursive: true, force: true }));

/** Java run with the archive required (-Xshare:on): it refuses to start when the archive does not map. */
const javaWithArchive = (archive: string, jar: string) =>
  spawnSync(
    'java',
    [
      '-Xshare:on',
      `-XX:SharedArchiveFile=${archive}`,
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-jar',
      jar,
      '-help',
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );

describe("DynamoDB Local's class-data archive", () => {
  it('is made once per JVM, in the cache given, leaving no scratch behind', async () => {
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
      readdirSync(tmpdir()).filter((n) => n.startsWith('geohub-cds-') && !n.startsWith('geohub-cds-cache-')),
    ).toEqual([]);
  }, 180_000);

  it('maps into Java with its own jar, and with no other (so a stale pair is never used)', async () => {
    const { archive } = await prepareClassArchive(home, cacheRoot);
    const own = javaWithArchive(archive.archive, archive.jar);
    expect(own.stderr).not.toMatch(/Unable to use shared archive/);
    expect(own.status).toBe(0);
    // The original jar lists "." in its class path: the archive does not fit it.
    const original = javaWithArchive(archive.archive, join(home, 'DynamoDBLocal.jar'));
    expect(original.status).not.toBe(0);
    expect(original.stderr).toMatch(/shared class paths mismatch|Unable to use shared archive/);
  }, 120_000);

  it("is what a local stack's DynamoDB Local maps once the project's cache has it", async () => {
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
  }, 180_000);
});
