// Starts a local stack, prints its PIDs as one JSON line, then waits to be killed.
import { startLocalStack } from '../../local/stack/stack.js';

const stack = await startLocalStack();
process.stdout.write(`${JSON.stringify({ pids: stack.pids })}\n`);
setInterval(() => {}, 60_000);
