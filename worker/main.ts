/**
 * The worker's entry point: the container's exec-form ENTRYPOINT runs this file with node,
 * so node itself receives ECS's SIGTERM. Exit codes: 0 idle, 75 interrupted, 78 self-check
 * refused, 1 fatal.
 */
import { EXIT_FATAL } from './exit-codes.js';
import { runWorker } from './run-worker.js';

process.title = 'geohub-worker';
runWorker()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`geohub-worker: fatal: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(EXIT_FATAL);
  });
