/**
 * The worker's entry point: the container's exec-form ENTRYPOINT runs this file with node,
 * so node itself receives ECS's SIGTERM. Exit codes: 0 idle, 75 interrupted, 78 self-check
 * refused, 1 fatal.
 */
import { markPhase, markProcessStart } from '../lib/log/phase-marks.js';
import { environmentFromParent } from './env-from-parent.js';
import { EXIT_FATAL } from './exit-codes.js';
import { runWorker } from './run-worker.js';

process.title = 'geohub-worker';
markProcessStart('worker');
markPhase('worker: code loaded');
// Started by a local pool (an IPC channel was set up): if the pool dies, stop as on Ctrl-C
// rather than serve a stack that is gone — also when it died before we got here. On ECS there
// is no channel and this does nothing.
const onParentGone = () => {
  if (process.listenerCount('SIGINT') > 0) process.emit('SIGINT');
  else process.exit(75);
};
if (typeof process.send === 'function') {
  if (process.connected) process.once('disconnect', onParentGone);
  else setImmediate(onParentGone);
}
environmentFromParent()
  .then(() => {
    markPhase('worker: environment received');
    return runWorker();
  })
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`geohub-worker: fatal: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(EXIT_FATAL);
  });
