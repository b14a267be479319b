// The closing lines of `npm test` (scripts/test.sh), from vitest's JSON reports: the count, then
// every test that failed and every file that failed outside a test (a hook, an import), each with
// the first lines of its error. CI shows only the tail of the output: a failure must be named there,
// not only in the middle of a 40-minute log.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Lines of an error message kept per failure, before the frame that names the test's own line. */
const MESSAGE_LINES = 6;

/** A report's path when it holds what it should; a missing or unreadable one counts as a failure. */
function readReport(path) {
  if (!existsSync(path)) return { missing: `${path}: no report (the suite did not run to its end)` };
  try {
    return { report: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (error) {
    return { missing: `${path}: unreadable report (${error.message})` };
  }
}

// ANSI colour codes (vitest colours its diffs) make the tail unreadable in a plain log.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is removed
const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The error's message, then the first stack frame outside node_modules: the line that failed. */
function excerpt(message) {
  const lines = plain(message ?? '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const isFrame = (line) => /^\s+at /.test(line);
  const text = lines.filter((line) => !isFrame(line)).slice(0, MESSAGE_LINES);
  const own = lines.find((line) => isFrame(line) && !line.includes('/node_modules/'));
  return [...text, ...(own ? [own.trim()] : [])].map((line) => `      ${line}`);
}

/**
 * The closing lines for these reports: `tests: N passed, M failed`, then one block per failure.
 * `root` shortens the files' paths.
 */
export function summarize(paths, root = process.cwd()) {
  let passed = 0;
  let failed = 0;
  const blocks = [];
  for (const path of paths) {
    const { report, missing } = readReport(path);
    if (missing) {
      failed += 1;
      blocks.push(`  ${missing}`);
      continue;
    }
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    for (const file of report.testResults ?? []) {
      const name = relative(root, file.name);
      const failures = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failures) {
        const seconds = typeof a.duration === 'number' ? ` (${(a.duration / 1000).toFixed(1)} s)` : '';
        blocks.push(`  ${name} > ${a.fullName}${seconds}`, ...excerpt(a.failureMessages?.join('\n')));
      }
      // A file that failed with no failed test: its hooks, its imports or its teardown.
      if (file.status === 'failed' && failures.length === 0)
        blocks.push(`  ${name} (outside its tests)`, ...excerpt(file.message));
    }
  }
  const head = `tests: ${passed} passed, ${failed} failed`;
  return {
    failed: failed > 0 || blocks.length > 0,
    lines: blocks.length ? [head, 'failed:', ...blocks] : [head],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { failed, lines } = summarize(process.argv.slice(2));
  console.log(lines.join('\n'));
  process.exitCode = failed ? 1 : 0;
}
