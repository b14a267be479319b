import { markPhase } from '../../lib/log/phase-marks.js';
import { startEmulators } from '../stack/emulator-set.js';
import { portOf } from './api-client.js';
import { checkRoomForCopy } from './free-space.js';
import type { InputFile } from './input-file.js';
import { type JobInputs, resolveJobInputs } from './job-inputs.js';
import { readLocalJob } from './local-job.js';
import { prepareOutputDir } from './output-dir.js';
import type { RunJobOptions, RunSummary } from './run-job-options.js';
import { findRunningUp } from './running-up.js';

/**
 * The main job: on the user's running `geohub up` when there is one (run-on-up.ts), else on the
 * embedded default: start the local stack and workers, upload the file
 * (the upload's own event starts the run), follow it to the end, copy the outputs, stop
 * everything. Whatever happens, nothing is left running.
 */
export async function runJob(options: RunJobOptions): Promise<RunSummary> {
  const started = Date.now();
  // Everything the user gave is checked before anything starts.
  const inputs = await resolveJobInputs(options.inputs ?? [options.file]);
  const collection = inputs.kind === 'collection' ? inputs : undefined;
  const input: InputFile = collection
    ? { path: collection.sidecarBase, bytes: collection.members.reduce((n, m) => n + m.bytes, 0) }
    : (inputs as Extract<JobInputs, { kind: 'file' }>).file;
  const job = await readLocalJob(input.path, options.job, options.zoom, options.sourceCrs);
  const out = await prepareOutputDir(options.out, options.replace ?? false);
  for (const file of collection?.members ?? [input]) await checkRoomForCopy(options.file, file.path);
  markPhase('cli: inputs checked');
  if (collection) {
    options.onCollection?.({ name: collection.name, members: collection.members.length });
    const members = collection.members;
    const lookup = options.standalone
      ? undefined
      : await findRunningUp(portOf(options.env ?? process.env), options.env);
    if (lookup && 'found' in lookup) {
      options.onUp?.({ using: lookup.found });
      const { runCollectionOnUp } = await import('./run-collection-on-up.js');
      return runCollectionOnUp(
        options,
        { started, input, job, out, members, name: collection.name },
        lookup.found,
      );
    }
    if (lookup) options.onUp?.(lookup);
    const emulators = startEmulators();
    const { runOnHub } = await import('./run-on-hub.js').catch(async (error: unknown) => {
      await emulators.stop();
      throw error;
    });
    return runOnHub(options, { started, input, job, out, emulators, members, name: collection.name });
  }
  if (!options.standalone) {
    // The user's running up, used as a build daemon is: nothing to start, its workers are warm.
    const lookup = await findRunningUp(portOf(options.env ?? process.env), options.env);
    if (lookup && 'found' in lookup) {
      options.onUp?.({ using: lookup.found });
      const { runOnUp } = await import('./run-on-up.js');
      return runOnUp(options, { started, input, job, out }, lookup.found);
    }
    if (lookup) options.onUp?.(lookup);
  }
  // The emulators first, DynamoDB Local's Java the longest start of all: the hub's code (most
  // of the CLI's) loads while it starts, rather than before (local/stack/emulator-set.ts).
  const emulators = startEmulators();
  const { runOnHub } = await import('./run-on-hub.js').catch(async (error: unknown) => {
    await emulators.stop();
    throw error;
  });
  return runOnHub(options, { started, input, job, out, emulators });
}
