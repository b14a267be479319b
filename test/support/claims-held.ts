import type { Ledger } from '../../lib/ledger/ledger.js';

/** Whether some sub-tile of the run is still CLAIMED (a worker holds it, or a dead one left it). */
export async function claimsHeld(ledger: Ledger, runId: string): Promise<boolean> {
  for await (const t of ledger.listTiles(runId)) if (t.state === 'CLAIMED') return true;
  return false;
}
