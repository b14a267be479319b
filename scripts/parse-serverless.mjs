#!/usr/bin/env node
// Part of `npm run build`: serverless.yml parsed once, into dist/serverless.json with the SHA-256
// of the text parsed, which the local stack reads at each start instead of parsing the YAML
// (local/stack/serverless-document.ts; an edited serverless.yml no longer matches and is parsed).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const text = readFileSync(join(root, 'serverless.yml'), 'utf8');
const sha256 = createHash('sha256').update(text).digest('hex');
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'serverless.json'), JSON.stringify({ sha256, document: parse(text) }));
