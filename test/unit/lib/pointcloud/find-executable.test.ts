import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findExecutable } from '../../../../lib/pointcloud/find-executable.js';
import { fileTempDir } from '../../../support/temp-dir.js';

describe('findExecutable', () => {
  const root = fileTempDir('geohub-path-');
  const [a, b, c] = ['a', 'b', 'c'].map((d) => {
    mkdirSync(join(root, d));
    return join(root, d);
  });
  writeFileSync(join(a!, 'pdal'), 'not executable');
  mkdirSync(join(b!, 'pdal')); // a directory of that name is not a program
  writeFileSync(join(c!, 'pdal'), '#!/bin/sh\n');
  chmodSync(join(c!, 'pdal'), 0o755);

  it('finds the first executable file of that name on the PATH', async () => {
    expect(await findExecutable('pdal', [a, b, c].join(delimiter))).toBe(join(c!, 'pdal'));
  });

  it('skips relative entries and finds nothing when nothing is there', async () => {
    expect(await findExecutable('pdal', ['.', '', a, b].join(delimiter))).toBeUndefined();
    expect(await findExecutable('pdal', undefined)).toBe(await findExecutable('pdal', process.env.PATH));
  });
});
