import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunControl } from '../run-control.js';
import type { TileRenderer } from './render/tile-renderer.js';
import { availableOutputs } from './run-outputs.js';
import { runStory } from './run-story.js';

/** GET /api/runs/:id/story */
const STORY_PATH = /^\/api\/runs\/([0-9a-z-]{8,64})\/story$/;

const json = (res: ServerResponse, status: number, value: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

/**
 * A run's story for the page: sub-tiles done over time, redone work and interruptions, the
 * downloads that exist, and how its tiles are drawn (the ramp's range, for the legend).
 */
export function storyRoute(hub: Pick<RunControl, 'store' | 'ledger'>, renderer: TileRenderer) {
  return (req: IncomingMessage, res: ServerResponse, pathname: string): boolean => {
    const m = STORY_PATH.exec(pathname);
    if (!m || req.method !== 'GET') return false;
    const runId = m[1]!;
    void (async () => {
      const run = await hub.ledger.getRun(runId);
      if (!run) {
        json(res, 404, { error: `no run ${runId}` });
        return;
      }
      const [story, outputs] = await Promise.all([
        runStory(hub.ledger, run),
        availableOutputs(hub.store, runId),
      ]);
      const look = renderer.look(runId);
      json(res, 200, {
        ...story,
        outputs,
        look: look ? { style: look.style.kind, range: look.range, final: look.final } : undefined,
      });
    })().catch((error: unknown) => json(res, 500, { error: (error as Error).message }));
    return true;
  };
}
