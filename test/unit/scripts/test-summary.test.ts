import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../scripts/test-summary.mjs';
import { fileTempDir } from '../../support/temp-dir.js';

// A report vitest 4.1.12 wrote for three files: one test passing and one failing an assertion,
// one file whose beforeAll threw, one whose import failed (paths rewritten to /repo).
const withFailures = fileURLToPath(
  new URL('../../fixtures/vitest/report-with-failures.json', import.meta.url),
);
const dir = fileTempDir('geohub-test-summary-');

describe('summarize', () => {
  it('names each failed test with its error and the line that failed, and each file that failed outside its tests', () => {
    const { failed, lines } = summarize([withFailures], '/repo');
    expect(failed).toBe(true);
    expect(lines).toEqual([
      'tests: 1 passed, 1 failed',
      'failed:',
      expect.stringMatching(/^ {2}a\.test\.ts > outer fails on a value \(\d+\.\d s\)$/),
      '      AssertionError: expected { a: 1, b: [ 1, 2 ] } to deeply equal { a: 2, b: [ 1, 2 ] }',
      '      at /repo/a.test.ts:4:60',
      '  b.test.ts (outside its tests)',
      '      the stack did not start',
      '  c.test.ts (outside its tests)',
      "      Cannot find module './missing-module.js' imported from /repo/c.test.ts",
    ]);
  });

  it('counts a missing or unreadable report as a failure, and a clean one as none', () => {
    const clean = join(dir, 'clean.json');
    writeFileSync(
      clean,
      JSON.stringify({
        numPassedTests: 2,
        numFailedTests: 0,
        testResults: [{ name: '/repo/x.test.ts', status: 'passed', message: '', assertionResults: [] }],
      }),
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"numPassedTests": 3,');
    expect(summarize([clean], '/repo')).toEqual({ failed: false, lines: ['tests: 2 passed, 0 failed'] });
    const { failed, lines } = summarize([clean, join(dir, 'absent.json'), broken], '/repo');
    expect(failed).toBe(true);
    expect(lines.slice(0, 3)).toEqual([
      'tests: 2 passed, 2 failed',
      'failed:',
      `  ${join(dir, 'absent.json')}: no report (the suite did not run to its end)`,
    ]);
    expect(lines[3]).toMatch(/^ {2}.*broken\.json: unreadable report \(/);
  });
});
