import type { LocalHub } from '../hub/local-hub.js';

/** Messages left on the work queue (once it has had `withinMs` to drain) and on the DLQ. */
export async function strandedMessages(hub: LocalHub, withinMs: number): Promise<number> {
  const deadline = Date.now() + withinMs;
  let queued = await hub.queue.depth();
  while (queued.visible + queued.inFlight > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    queued = await hub.queue.depth();
  }
  const dead = await hub.deadLetters.depth();
  return queued.visible + queued.inFlight + dead.visible + dead.inFlight;
}
