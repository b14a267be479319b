import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readServerlessDocument, SERVERLESS_FILE } from '../../../../local/stack/serverless-document.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('readServerlessDocument', () => {
  it('parses a file once while it is unchanged, and again once it changes', () => {
    const file = join(tempDir('geohub-sls-'), 'serverless.yml');
    writeFileSync(file, 'service: one\n');
    const first = readServerlessDocument(file);
    expect(first).toEqual({ service: 'one' });
    // The same parsed document, not a second parse.
    expect(readServerlessDocument(file)).toBe(first);
    writeFileSync(file, 'service: two\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(readServerlessDocument(file)).toEqual({ service: 'two' });
  });

  it('reads the repository’s serverless.yml: its service and its functions', () => {
    const doc = readServerlessDocument(SERVERLESS_FILE) as { service: string; functions: object };
    expect(doc.service).toBe('geohub');
    expect(Object.keys(doc.functions).length).toBeGreaterThan(0);
  });
});
