// Starts the local hub (stack and workers) under the CLI's crash guards, says so on stdout,
// then, when the test says so on stdin, throws an error nothing catches: what every exit hook
// must clean up after. (On a timer, a loaded machine once crashed it before the test had looked.)
import { once } from 'node:events';
import { installCrashGuards } from '../../local/cli/crash-guards.js';
import { startLocalHub } from '../../local/hub/local-hub.js';

installCrashGuards();
await startLocalHub({ workers: 2 });
process.stdout.write('hub started\n');
await once(process.stdin, 'data');
setImmediate(() => {
  throw new Error('boom');
});
