import { relative } from 'node:path';
import { beforeAll, expect } from 'vitest';
import { RECORD_LABEL_ENV } from '../../local/iam/record-requests.js';

// What the stacks a test file starts were allowed to do is recorded under that file's name (npm
// run test:iam-mutation, docs/iam-mutation.md), whichever way it starts them: set before the
// file's own hooks run, for every file (a fork runs one file; a stack reads it when it stops).
beforeAll(() => {
  const file = expect.getState().testPath;
  if (file) process.env[RECORD_LABEL_ENV] = relative(process.cwd(), file);
});
