import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { checkProgressTask } from '../../../functions/check-progress.js';
import type { FunctionDeps } from '../../../functions/deps.js';
import { drainTask } from '../../../functions/drain.js';
import { enqueueTask } from '../../../functions/enqueue.js';
import { finalizeTask } from '../../../functions/finalize.js';
import { markFailedTask } from '../../../functions/mark-failed.js';
import { onExecutionStatusTask } from '../../../functions/on-execution-status.js';
import { onUploadTask } from '../../../functions/on-upload.js';
import { redriveTask } from '../../../functions/redrive.js';
import { splitTask } from '../../../functions/split.js';

// Dependencies that fail loudly if a handler ever reaches them with an invalid event.
const untouchable = new Proxy(
  {},
  {
    get: (_t, name) => {
      if (name === 'then') return undefined;
      throw new Error(`reached dependency ${String(name)} with an invalid event`);
    },
  },
) as FunctionDeps;
const deps = { ...untouchable, starter: untouchable, config: untouchable } as unknown as FunctionDeps & {
  starter: never;
};

const hostile: unknown[] = [
  null,
  'a string',
  { runId: '../../etc' },
  { runId: 'r-$(reboot)' },
  { Records: [{ s3: 1 }] },
  { detail: { status: 'ABORTED', input: '{"runId":"../x"}', executionArn: 'a' } },
  { source: { bucket: 'Not A Bucket', key: '/abs', version: '' } },
  { manifest: { runId: 'r-x' }, cursor: { part: -1 } },
];

describe('every external input is validated by schema before any dependency is touched', () => {
  const tasks: [string, (e: unknown) => Promise<unknown>][] = [
    ['split', splitTask(deps)],
    ['enqueue', enqueueTask(deps)],
    ['check-progress', checkProgressTask(deps)],
    ['drain', drainTask(deps)],
    ['finalize', finalizeTask(deps)],
    ['mark-failed', markFailedTask(deps)],
    ['on-execution-status', onExecutionStatusTask(deps)],
    ['on-upload', onUploadTask(deps)],
    ['redrive', redriveTask(deps)],
  ];
  it.each(tasks)('%s rejects hostile events with a validation error', async (_name, task) => {
    for (const event of hostile) {
      const error = await task(event).then(
        (value) => ({ value }),
        (e: unknown) => e,
      );
      if (error && typeof error === 'object' && 'value' in error) {
        // Accepted only if the event is irrelevant to this task (an S3 event with no upload, an
        // execution status that cancels nothing) and nothing was touched.
        continue;
      }
      const e = error as Error;
      expect(
        e instanceof ZodError || /Invalid|invalid|Error$/.test(e.name),
        `${_name}: ${e.name}: ${e.message}`,
      ).toBe(true);
      expect(e.message).not.toMatch(/reached dependency/);
    }
  });
});
