import { appendFileSync } from 'node:fs';
import type { Authorizer } from './authorizer.js';

/** The file a stack appends the requests its principals were allowed to (the IAM mutation check's input). */
export const RECORD_ENV = 'GEOHUB_IAM_RECORD';
/** Who made them: a test file's path (test/support/hub.ts sets it), else the process's command. */
export const RECORD_LABEL_ENV = 'GEOHUB_IAM_RECORD_LABEL';

export interface RecordedRequest {
  readonly principal: string;
  readonly action: string;
  readonly resource: string;
  readonly label: string;
}

/** Appends what was allowed, one JSON line each, when GEOHUB_IAM_RECORD names a file. */
export function recordRequests(authorizer: Authorizer, env: NodeJS.ProcessEnv = process.env): void {
  const file = env[RECORD_ENV];
  if (!file) return;
  const label = env[RECORD_LABEL_ENV] ?? process.argv.slice(1).join(' ');
  const lines = authorizer
    .allowed()
    .map((a) => `${JSON.stringify({ ...a, label } satisfies RecordedRequest)}\n`);
  if (lines.length > 0) appendFileSync(file, lines.join(''));
}
