import type { LocalHub } from '../hub/local-hub.js';

/** What is left on the work queue and its dead-letter queue at the end of a run. */
export interface Stranded {
  readonly total: number;
  readonly work: { readonly visible: number; readonly inFlight: number };
  readonly dead: { readonly visible: number; readonly inFlight: number };
  /** Metatiles whose messages were received three times or more (a fourth receive dead-letters). */
  readonly receivedThrice?: readonly string[];
}

/** Messages left on the work queue (once it has had `withinMs` to drain) and on the DLQ. */
export async function strandedMessages(hub: LocalHub, withinMs: number): Promise<Stranded> {
  const deadline = Date.now() + withinMs;
  let work = await hub.queue.depth();
  while (work.visible + work.inFlight > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    work = await hub.queue.depth();
  }
  const dead = await hub.deadLetters.depth();
  return { total: work.visible + work.inFlight + dead.visible + dead.inFlight, work, dead };
}
