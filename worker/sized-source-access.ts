import type { RunHead } from '../lib/model/run.js';
import { sourcePin } from '../lib/source/source-pin.js';
import type { ObjectStore } from '../lib/store/object-store.js';
import { isVrtKey, type SourceAccess } from './source-access.js';

/**
 * The default way to read a run's source: one local copy per worker when the source is small,
 * ranged GETs when it is not. A metatile reopens the source: through /vsis3/ each open costs
 * GDAL a few GETs of latency behind the tiles' PUTs (a third of a 256-sub-tile Byte run's tool
 * time, bench/profile-run.ts), which one download of a small file repays at once; a large
 * source is read by ranges, so a worker fetches only the blocks of its own metatiles.
 *
 * The choice is made once per run, by the size of the run's pinned version (one HEAD); a source
 * the HEAD cannot see (gone, re-uploaded) goes the ranged way, whose reads fail as they should.
 * The tool's environment is the ranged one whichever way: its pin header means nothing to a
 * local file. A VRT is always read in place: the files it names sit beside it in the bucket.
 */
export function sizedSourceAccess(
  ranged: SourceAccess,
  cached: SourceAccess,
  store: ObjectStore,
  maxCachedBytes: number,
  onChoice: (run: RunHead, way: 'cached' | 'ranged', bytes: number | undefined) => void = () => {},
): SourceAccess {
  const choices = new Map<string, Promise<SourceAccess>>();
  const decide = async (run: RunHead, signal?: AbortSignal) => {
    // A VRT names other objects by paths relative to it: read where it is, never as a lone copy.
    if (isVrtKey(run.source.key)) return { way: 'ranged' as const, bytes: undefined };
    const head = await store.head(run.source.key, { signal, pin: sourcePin(run.source) });
    return {
      way: head && head.bytes <= maxCachedBytes ? ('cached' as const) : ('ranged' as const),
      bytes: head?.bytes,
    };
  };
  const choose = (run: RunHead, signal?: AbortSignal) => {
    let choice = choices.get(run.runId);
    if (!choice) {
      choice = decide(run, signal).then(({ way, bytes }) => {
        onChoice(run, way, bytes);
        return way === 'cached' ? cached : ranged;
      });
      choices.set(run.runId, choice);
      // A failed HEAD is not remembered: the next metatile asks again.
      choice.catch(() => choices.delete(run.runId));
    }
    return choice;
  };
  return {
    resolve: async (run, signal) => (await choose(run, signal)).resolve(run, signal),
    toolEnv: (run) => ranged.toolEnv(run),
    readable: async (run, signal) => (await choose(run, signal)).readable(run, signal),
    async retain(runIds) {
      for (const runId of [...choices.keys()]) if (!runIds.has(runId)) choices.delete(runId);
      await ranged.retain(runIds);
      await cached.retain(runIds);
    },
    async dispose() {
      choices.clear();
      await ranged.dispose();
      await cached.dispose();
    },
  };
}
