import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../local/project-root.js';

// `geohub --help`, `status` and every other command start by loading dist/cli-bundle/main.js and
// what it imports statically; the AWS SDK's clients (some 0.25 s to load here) must come only with
// the commands that use them, by dynamic import. Found: a control command's static import of the
// outputs' copier doubled the CLI's start (0.23 s → 0.48 s for --help).
const DIR = join(projectRoot(), 'dist', 'cli-bundle');
const CLIENTS = /\b(DynamoDBClient|S3Client|SQSClient|SFNClient|LambdaClient|CloudFormationClient)\b/;

/** Every file main.js loads before it runs: its static imports, transitively (esbuild's output). */
function staticallyLoaded(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(DIR, file), 'utf8');
    for (const m of code.matchAll(/import(?:\{[^}]*\}from|\s[\w$]+\sfrom)?\s?"\.\/([^"]+)"/g)) visit(m[1]!);
  };
  visit(entry);
  return [...seen];
}

describe("the CLI's start", () => {
  it('loads no AWS SDK client: they come with the commands that call AWS', () => {
    const loaded = staticallyLoaded('main.js');
    expect(loaded.length).toBeGreaterThan(1);
    expect(loaded.filter((file) => CLIENTS.test(readFileSync(join(DIR, file), 'utf8')))).toEqual([]);
    // The check sees them where they are: the bundle holds the clients, in chunks loaded lazily.
    const all = readdirSync(DIR).filter((file) => file.endsWith('.js'));
    expect(all.filter((file) => CLIENTS.test(readFileSync(join(DIR, file), 'utf8'))).length).toBeGreaterThan(
      0,
    );
  });
});
