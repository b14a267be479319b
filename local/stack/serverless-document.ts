import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../project-root.js';

/** serverless.yml at the repository root: the one source of truth for AWS and the local stack. */
export const SERVERLESS_FILE = join(projectRoot(), 'serverless.yml');

/**
 * serverless.yml as `npm run build` parsed it (scripts/parse-serverless.mjs), with the SHA-256 of
 * the text it parsed: the CLI's start reads it instead of loading a YAML parser and parsing 50 KB
 * (some 0.2 CPU-s, on the cores DynamoDB Local starts on).
 */
export const BUILT_DOCUMENT = join(projectRoot(), 'dist', 'serverless.json');

export interface BuiltDocument {
  readonly sha256: string;
  readonly document: unknown;
}

const parsed = new Map<string, { readonly sha256: string; readonly doc: unknown }>();

const sha256Of = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

function builtDocument(file: string, sha256: string): unknown {
  try {
    const built = JSON.parse(readFileSync(file, 'utf8')) as BuiltDocument;
    return built.sha256 === sha256 ? built.document : undefined;
  } catch {
    return undefined; // not built, or built by an older build: parse the text
  }
}

/** The YAML parser, loaded only when there is no parsed copy to read. */
function parseYaml(text: string): unknown {
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return parse(text);
}

/**
 * A serverless.yml's document: the build's parsed copy when it was made of this very text (an
 * edited serverless.yml is parsed again), and once per process whatever the source: the stack's
 * resources and the functions' limits both read it at every start of the local stack.
 * Read-only: callers build their own values from it.
 */
export function readServerlessDocument(file: string = SERVERLESS_FILE, built = BUILT_DOCUMENT): unknown {
  const text = readFileSync(file, 'utf8');
  const sha256 = sha256Of(text);
  const known = parsed.get(file);
  if (known?.sha256 === sha256) return known.doc;
  const doc = builtDocument(built, sha256) ?? parseYaml(text);
  parsed.set(file, { sha256, doc });
  return doc;
}
