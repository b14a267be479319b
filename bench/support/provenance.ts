import { execFileSync } from 'node:child_process';
import type { Spread } from './stats.js';

/** Which code a figure was measured on, and when: every row of docs/benchmarks.md carries one. */
export interface Provenance {
  /** `git rev-parse HEAD` when the bench ran. */
  readonly commit: string;
  /** Uncommitted changes to tracked files then (the figures are of code no commit holds). */
  readonly dirty: boolean;
  readonly at: string;
  /** The 1-minute load average while it ran. */
  readonly load?: Spread;
  /** Seconds of the speed probe while it ran (cpu-speed.ts): older results lack it. */
  readonly speed?: Spread;
}

export function gitState(root: string): Pick<Provenance, 'commit' | 'dirty'> {
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
  return {
    commit: git('rev-parse', 'HEAD'),
    dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
  };
}

/** "`1a2b3c4d`" or "`1a2b3c4d` + uncommitted changes" */
export function showCommit(p: Pick<Provenance, 'commit' | 'dirty'>): string {
  return `\`${p.commit.slice(0, 8)}\`${p.dirty ? ' + uncommitted changes' : ''}`;
}

/** "2026-12-03 16:39 UTC" */
export const showAt = (at: string) => `${at.slice(0, 16).replace('T', ' ')} UTC`;
