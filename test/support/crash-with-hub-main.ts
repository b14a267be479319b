// Starts the local hub (stack and workers) under the CLI's crash guards, says so on stdout,
// then throws an error nothing catches: what every exit hook must clean up after.
import { installCrashGuards } from '../../local/cli/crash-guards.js';
import { startLocalHub } from '../../local/hub/local-hub.js';

installCrashGuards();
await startLocalHub({ workers: 2 });
process.stdout.write('hub started\n');
setTimeout(() => {
  throw new Error('boom');
}, 1_000);
