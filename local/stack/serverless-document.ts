import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../project-root.js';

/** serverless.yml at the repository root: the one source of truth for AWS and the local stack. */
export const SERVERLESS_FILE = join(projectRoot(), 'serverless.yml');

const parsed = new Map<string, { readonly version: string; readonly doc: unknown }>();

/**
 * A serverless.yml, parsed once per process: the stack's resources and the functions' limits both
 * read it at every start of the local stack, and a parse of its 50 KB takes 90–135 ms of the CLI's
 * start, on the cores DynamoDB Local starts on. Parsed again if the file changed (its size or
 * modification time). Read-only: callers build their own values from it.
 */
export function readServerlessDocument(file: string = SERVERLESS_FILE): unknown {
  const { size, mtimeMs } = statSync(file);
  const version = `${size}:${mtimeMs}`;
  const known = parsed.get(file);
  if (known?.version === version) return known.doc;
  const doc: unknown = parse(readFileSync(file, 'utf8'));
  parsed.set(file, { version, doc });
  return doc;
}
