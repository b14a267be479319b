import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  BUILT_DOCUMENT,
  type BuiltDocument,
  readServerlessDocument,
  SERVERLESS_FILE,
} from '../../../../local/stack/serverless-document.js';
import { tempDir } from '../../../support/temp-dir.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('readServerlessDocument', () => {
  it('parses a file once while it is unchanged, and again once it changes', () => {
    const dir = tempDir('geohub-sls-');
    const file = join(dir, 'serverless.yml');
    const none = join(dir, 'no-build.json');
    writeFileSync(file, 'service: one\n');
    const first = readServerlessDocument(file, none);
    expect(first).toEqual({ service: 'one' });
    // The same parsed document, not a second parse.
    expect(readServerlessDocument(file, none)).toBe(first);
    writeFileSync(file, 'service: two\n');
    expect(readServerlessDocument(file, none)).toEqual({ service: 'two' });
  });

  it("reads the build's parsed copy of the very same text, and parses any other text", () => {
    const dir = tempDir('geohub-sls-');
    const built = join(dir, 'serverless.json');
    const text = 'service: three\n';
    // A marker document: had the YAML been parsed, it would say "three".
    writeFileSync(built, JSON.stringify({ sha256: sha256(text), document: { service: 'from the build' } }));
    const file = join(dir, 'serverless.yml');
    writeFileSync(file, text);
    expect(readServerlessDocument(file, built)).toEqual({ service: 'from the build' });
    const edited = join(dir, 'edited.yml');
    writeFileSync(edited, 'service: four\n');
    expect(readServerlessDocument(edited, built)).toEqual({ service: 'four' });
    writeFileSync(built, '{"sha256": "trunc');
    const other = join(dir, 'other.yml');
    writeFileSync(other, text);
    expect(readServerlessDocument(other, built)).toEqual({ service: 'three' });
  });

  it("reads the repository's serverless.yml: the build's copy is the YAML parser's document", () => {
    const text = readFileSync(SERVERLESS_FILE, 'utf8');
    const built = JSON.parse(readFileSync(BUILT_DOCUMENT, 'utf8')) as BuiltDocument;
    expect(built.sha256, 'dist/serverless.json is made by `npm run build`').toBe(sha256(text));
    // Nothing of the YAML is lost in JSON (no dates, no undefined values, no special numbers).
    expect(built.document).toEqual(parse(text));
    const doc = readServerlessDocument(SERVERLESS_FILE) as { service: string; functions: object };
    expect(doc.service).toBe('geohub');
    expect(Object.keys(doc.functions).length).toBeGreaterThan(0);
  });
});
