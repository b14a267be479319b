import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createFixture } from '../../support/run-fixture.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';
import { spawnWorker, trackWorkers } from '../../support/worker-harness.js';

const { config, clients, env } = stackClients();
const workers = trackWorkers();
const strays: { kill(): void }[] = [];
afterEach(async () => {
  for (const stray of strays.splice(0)) {
    try {
      stray.kill();
    } catch {
      // already gone
    }
  }
});
afterAll(() => clients.destroy());

describe('start-up self-check', () => {
  it('refuses work (exit 78, a clear message) when a stale .part is in its scratch space', async () => {
    const fixture = await createFixture(config, clients);
    const scratch = tempDir('geohub-stale-');
    mkdirSync(join(scratch, 'out', 'r-old', '12'), { recursive: true });
    const stale = join(scratch, 'out', 'r-old', '12', '1300.tif.1a2b3c4d.part');
    writeFileSync(stale, 'half a tile');
    const worker = spawnWorker(env, { ...fixture.env, GEOHUB_SCRATCH_DIR: scratch });
    workers.push(worker);
    expect((await worker.exited).code).toBe(78);
    expect(worker.text.join('\n')).toContain(`refusing work`);
    expect(worker.text.join('\n')).toContain(`stale partial output ${stale}`);
  });

  it('refuses work when a GDAL process older than the longest budget is running', async () => {
    const fixture = await createFixture(config, clients);
    // An orphan as the self-check sees one: a process whose name starts with gdal and whose
    // parent is gone (the shell that started it in the background exited: init adopted it).
    const dir = tempDir('geohub-orphan-');
    const fake = join(dir, 'gdalwarp');
    copyFileSync('/bin/sleep', fake);
    const pid = Number(
      execFileSync('sh', ['-c', `"${fake}" 600 >/dev/null 2>&1 & echo $!`], { encoding: 'utf8' }),
    );
    const orphan = { pid, kill: () => process.kill(pid, 'SIGKILL') };
    strays.push(orphan);
    await new Promise((r) => setTimeout(r, 2_200));
    const worker = spawnWorker(env, { ...fixture.env, GEOHUB_ORPHAN_AGE_S: '2' });
    workers.push(worker);
    expect((await worker.exited).code).toBe(78);
    expect(worker.text.join('\n')).toMatch(
      new RegExp(`orphaned gdalwarp process ${orphan.pid} running for \\d+ s`),
    );
  });
});
