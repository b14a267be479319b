/**
 * The start-up profile of the small job (issue 40): `geohub run` on the 20-tile job, cold and on
 * a running `geohub up`, every process marking its phases (lib/log/phase-marks.ts). Each event's
 * time after the command's start (median, min–max), and how often it was on the critical path
 * (bench/support/startup-path.ts): the phases that a faster start would shorten.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type PhaseMark, PROFILE_ENV } from '../lib/log/phase-marks.js';
import { geohubCliRun } from './geohub-cli-run.js';
import type { BenchRaster } from './sources.js';
import { criticalPath, EVENTS, runEvents } from './support/startup-path.js';
import { type Spread, spread } from './support/stats.js';
import { startUpDaemon } from './support/up-daemon.js';

/** One way of running the job: each event's time after the start, and its share of critical paths. */
export interface StartupFigures {
  readonly seconds: Spread;
  /** ms after the command's start; only events seen in every run. */
  readonly events: Readonly<Record<string, Spread>>;
  /** In how many runs the event was on the critical path. */
  readonly critical: Readonly<Record<string, number>>;
}

export interface StartupProfile {
  readonly job: string;
  readonly tiles: number;
  readonly cold: StartupFigures;
  readonly onUp: StartupFigures;
}

const readMarks = (file: string): PhaseMark[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as PhaseMark);

function summarise(runs: { seconds: number; events: Map<string, number> }[]): StartupFigures {
  const events: Record<string, Spread> = {};
  const critical: Record<string, number> = {};
  for (const name of EVENTS) {
    const times = runs.flatMap((r) => (r.events.has(name) ? [r.events.get(name)!] : []));
    if (times.length === runs.length) events[name] = spread(times);
  }
  for (const r of runs) for (const name of criticalPath(r.events)) critical[name] = (critical[name] ?? 0) + 1;
  return { seconds: spread(runs.map((r) => r.seconds)), events, critical };
}

export async function benchStartupProfile(
  raster: BenchRaster,
  options: { workers: number; runs: number; dir: string },
): Promise<StartupProfile> {
  const { workers, runs, dir } = options;
  const zoom = raster.zoom ?? 9;
  let tiles = 0;
  const profiled = async (n: string, up?: Readonly<Record<string, string>>, upFile?: string) => {
    const file = join(dir, `startup-${n}.jsonl`);
    rmSync(file, { force: true });
    const run = await geohubCliRun(raster, zoom, workers, dir, up, { [PROFILE_ENV]: file });
    tiles = run.tiles;
    const marks = [...readMarks(file), ...(upFile ? readMarks(upFile) : [])];
    rmSync(file, { force: true });
    return { seconds: run.seconds, events: runEvents(marks) };
  };
  const cold = [];
  for (let i = 0; i < runs; i += 1) cold.push(await profiled(`cold-${i}`));
  const upFile = join(dir, 'startup-up.jsonl');
  rmSync(upFile, { force: true });
  const up = await startUpDaemon(dir, workers, { [PROFILE_ENV]: upFile });
  const onUp = [];
  try {
    await profiled('warm', up.env, upFile); // warms the up, as a user's first run does
    for (let i = 0; i < runs; i += 1) onUp.push(await profiled(`up-${i}`, up.env, upFile));
  } finally {
    await up.stop();
    rmSync(upFile, { force: true });
  }
  return { job: raster.label, tiles, cold: summarise(cold), onUp: summarise(onUp) };
}
