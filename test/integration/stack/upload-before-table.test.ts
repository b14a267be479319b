import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PhaseMark } from '../../../lib/log/phase-marks.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { type EmulatorSet, startEmulators } from '../../../local/stack/emulator-set.js';
import { startTestHub } from '../../support/hub.js';
import { markFileProcesses } from '../../support/marked-processes.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

// geohub run's cold start: its file goes up once the bucket takes objects, while DynamoDB Local's
// Java still starts; the upload's event starts the run once the hub is wired.
const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
const fileProcesses = markFileProcesses();
const PROFILE = 'GEOHUB_PROFILE';

/** The stack's real emulators, DynamoDB Local's readiness held back until the test says. */
function heldDynamo(): { set: EmulatorSet; release(): void; fail(error: Error): void } {
  const set = startEmulators();
  let release = () => {};
  let fail: (error: Error) => void = () => {};
  const gate = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  gate.catch(() => {});
  const dynamo = Promise.all([set.ready('dynamodb'), gate]).then(([e]) => e);
  const started = Promise.all([set.started, gate]).then(([s]) => s);
  started.catch(() => {});
  return {
    set: { ...set, started, ready: (kind) => (kind === 'dynamodb' ? dynamo : set.ready(kind)) },
    release,
    fail,
  };
}

let hub: LocalHub | undefined;
let profile: string | undefined;
afterEach(async () => {
  await hub?.stop();
  hub = undefined;
  if (profile === undefined) delete process.env[PROFILE];
  else process.env[PROFILE] = profile;
});

const phases = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as PhaseMark).phase)
    : [];

describe('the first upload does not wait for the table', () => {
  it('is stored while DynamoDB Local is held back, and its run starts and succeeds once it is up', async () => {
    const file = join(tempDir('geohub-profile-'), 'marks.jsonl');
    profile = process.env[PROFILE];
    process.env[PROFILE] = file;
    const held = heldDynamo();
    const starting = startTestHub({ emulators: held.set, firstUpload: { file: RGB, job: { zoom: 8 } } });
    starting.catch(() => {});
    expect(await waitUntil(() => phases(file).includes('hub: source stored'), 120_000)).toBe(true);
    // Stored before the table exists: no DynamoDB call was in the upload's way.
    expect(phases(file)).not.toContain('stack: table made');
    held.release();
    hub = await starting;
    const outcome = await hub.firstUpload!;
    if (outcome.outcome !== 'started') throw new Error(`not started: ${outcome.outcome}`);
    const execution = await hub.executions.wait(outcome.executionArn);
    expect(execution.status).toBe('SUCCEEDED');
    const run = await hub.ledger.getRun(outcome.runId);
    expect(run?.counters.done).toBe(run?.counters.total);
    expect(run?.source.key).toBe(outcome.key);
  }, 240_000);

  it('a stack that fails to start after the upload began: the start fails with its reason, nothing left', async () => {
    const held = heldDynamo();
    let sending = false;
    const onProgress = () => {
      sending = true;
    };
    const starting = startTestHub({ emulators: held.set, firstUpload: { file: RGB, onProgress } });
    starting.catch(() => {});
    // The upload under way, as the start fails.
    expect(await waitUntil(() => sending, 120_000, 20)).toBe(true);
    held.fail(new Error('DynamoDB Local did not start (held by the test)'));
    await expect(starting).rejects.toThrow('DynamoDB Local did not start (held by the test)');
    expect(await waitUntil(() => fileProcesses.live().length === 0, 30_000)).toBe(true);
  }, 240_000);
});
