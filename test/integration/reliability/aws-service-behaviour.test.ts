import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFaultRates } from '../../../local/faults/fault-rates.js';
import type { LocalHub } from '../../../local/hub/local-hub.js';
import { expectSucceeded } from '../../support/expect-succeeded.js';
import { recordToolStarts, startTestHub } from '../../support/hub.js';
import { slowGeoTiff } from '../../support/raster-fixtures.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
let hub: LocalHub;
const toolStarts: { runId: string; pid: number }[] = [];

beforeAll(async () => {
  hub = await startTestHub({
    // AWS on a bad day, in the services no proxy sees: Step Functions' Lambda invocations fail
    // with Lambda's transient errors, StartExecution is refused half the time, and EventBridge
    // delivers no execution-status event at all. Short polls see nothing.
    faults: parseFaultRates({
      GEOHUB_FAULT_SEED: '32',
      GEOHUB_FAULT_LAMBDA_SERVICE: '0.4',
      GEOHUB_FAULT_SFN_START_THROTTLE: '0.5',
      GEOHUB_FAULT_EVENTS_LOST: '1',
      GEOHUB_FAULT_SQS_EMPTY_SHORT_POLL: '1',
    }),
    workerEnv: { GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: recordToolStarts(toolStarts),
  });
});
afterAll(async () => {
  await hub?.stop();
});

describe("AWS's documented service behaviour on the local stack", () => {
  it('a run succeeds with exact counters through Lambda service errors, refused starts and lost events', async () => {
    // Runs until the faults met cover every kind (a run makes few invocations: how many faults
    // one meets depends on how many progress checks it needed), each run checked in full.
    const lambdaKinds = () => Object.keys(hub.serviceFaults()).filter((k) => k.startsWith('Lambda.'));
    for (let i = 0; i < 8 && (i === 0 || lambdaKinds().length < 4); i += 1) {
      const started = await hub.upload(RGB, { name: `service-faults-${i}.tif`, job: { zoom: 10 } });
      if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
      const execution = await hub.executions.wait(started.executionArn);
      expectSucceeded(execution);
      const run = await hub.ledger.getRun(started.runId);
      expect(run?.status).toBe('SUCCEEDED');
      expect(run?.counters.done).toBe(run?.counters.total);
      expect(run?.counters.failed).toBe(0);
    }
    // Every kind was met, so the runs above went through them.
    const injected = hub.serviceFaults();
    console.info('injected outside the proxies:', injected);
    // All four of Lambda's transient errors: two refused before the function ran, two that lost
    // the answer of one that did (the task ran twice).
    expect(
      Object.keys(injected)
        .filter((k) => k.startsWith('Lambda.'))
        .sort(),
    ).toEqual([
      'Lambda.ClientExecutionTimeoutException',
      'Lambda.SdkClientException',
      'Lambda.ServiceException',
      'Lambda.TooManyRequestsException',
    ]);
    expect((injected.ThrottlingException ?? 0) + (injected.ExecutionLimitExceeded ?? 0)).toBeGreaterThan(0);
    expect(injected.EventLost).toBeGreaterThan(0);
  });

  it('a stopped execution whose status event never came still ends its run: the reaper records it', async () => {
    const started = await hub.upload(slowGeoTiff(tempDir('geohub-slowtif-')), {
      job: { zoom: 13, resampling: 'lanczos' },
    });
    if (started.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(started)}`);
    expect(await waitUntil(() => toolStarts.some((t) => t.runId === started.runId), 60_000)).toBe(true);
    const lostBefore = hub.serviceFaults().EventLost ?? 0;
    await hub.executions.stop(started.executionArn);
    expect(hub.executions.get(started.executionArn)?.status).toBe('ABORTED');
    // The event that would have cancelled the run was lost: the run still says RUNNING.
    expect(hub.serviceFaults().EventLost).toBe(lostBefore + 1);
    expect((await hub.ledger.getRun(started.runId))?.status).toBe('RUNNING');

    const round = await hub.reap();
    expect(round.reconciled).toBeGreaterThanOrEqual(1);
    const run = await hub.ledger.getRun(started.runId);
    expect(run?.status).toBe('CANCELLED');
    expect(run?.reason).toMatch(/execution stopped/);
    // Its workers see the cancel and stop: no claim is left held.
    expect(
      await waitUntil(async () => {
        for await (const m of hub.ledger.listMetatiles(started.runId))
          if (m.state === 'CLAIMED') return false;
        return true;
      }, 30_000),
    ).toBe(true);
  });
});
