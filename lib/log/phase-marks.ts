import { appendFileSync } from 'node:fs';

/**
 * Names the file every process of a local run appends its phase marks to (the bench's start-up
 * profile, bench/startup-profile.ts): the CLI, the emulators' parent, the workers and the hub's
 * steps all inherit it. Unset (always, outside the bench), a mark costs one lookup.
 */
export const PROFILE_ENV = 'GEOHUB_PROFILE';

/** One line of the profile: when (epoch ms), what, and which process. */
export interface PhaseMark {
  readonly at: number;
  readonly phase: string;
  readonly pid: number;
}

/**
 * Appends `phase` at `at` (now by default; a process's start is `performance.timeOrigin`). One
 * short append per mark: lines from several processes do not interleave.
 */
export function markPhase(
  phase: string,
  at: number = Date.now(),
  env: NodeJS.ProcessEnv = process.env,
): void {
  const file = env[PROFILE_ENV];
  if (!file) return;
  const mark: PhaseMark = { at: Math.round(at), phase, pid: process.pid };
  appendFileSync(file, `${JSON.stringify(mark)}\n`);
}

/** The process's own start, as a mark (its clock origin, before any module loaded). */
export function markProcessStart(role: string, env: NodeJS.ProcessEnv = process.env): void {
  markPhase(`${role}: process start`, performance.timeOrigin, env);
}
