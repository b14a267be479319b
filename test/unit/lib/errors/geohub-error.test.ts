import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeohubError } from '../../../../lib/errors/geohub-error.js';
import { findFiles } from '../../../support/find-files.js';

const root = join(import.meta.dirname, '../../../..');

class ProbeError extends GeohubError {
  override readonly name = 'ProbeError';
}

/** Every error class of the source tree (`export class …Error extends …Error`), imported from its module. */
async function errorClasses() {
  const files = ['lib', 'functions', 'worker', 'local'].flatMap((dir) =>
    findFiles(join(root, dir), (name) => name.endsWith('.ts')),
  );
  const classes: { file: string; name: string; cls: new (...args: never[]) => Error }[] = [];
  for (const file of files) {
    const names = [...readFileSync(file, 'utf8').matchAll(/export class (\w+) extends \w*Error\b/g)];
    if (names.length === 0) continue;
    const module = (await import(file)) as Record<string, new (...args: never[]) => Error>;
    for (const [, name] of names)
      classes.push({ file: relative(root, file), name: name!, cls: module[name!]! });
  }
  return classes;
}

describe('GeohubError', () => {
  it('keeps the subclass name, the message and the cause, and is an Error', () => {
    const cause = new Error('socket hang up');
    const error = new ProbeError('could not read', { cause });
    expect(error).toBeInstanceOf(GeohubError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ProbeError');
    expect(error.message).toBe('could not read');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('ProbeError: could not read');
    expect(new ProbeError('no cause')).not.toHaveProperty('cause');
  });

  it('every error class of the tree extends it, named after itself, and keeps a cause given last', async () => {
    const classes = await errorClasses();
    // The tree has dozens; a scan that found a handful would prove little.
    expect(classes.length).toBeGreaterThan(40);
    const cause = new Error('underlying');
    for (const { file, name, cls } of classes) {
      expect(cls, `${file}: ${name}`).toBeTypeOf('function');
      expect(cls.prototype, `${file}: ${name}`).toBeInstanceOf(GeohubError);
      // Named after the AWS error they stand for (below).
      if (name === 'LambdaLimitError' || name === 'LocalAccessDeniedError') continue;
      // Constructors take (message, …fields, options): the options in every later position
      // reach the last parameter whatever the number of fields.
      const options = { cause };
      const error = new (cls as unknown as new (...a: unknown[]) => Error)(
        'm',
        options,
        options,
        options,
        options,
      );
      expect(error.name, file).toBe(name);
      expect(error.cause, `${file}: ${name}`).toBe(cause);
    }
  });

  it("the names the state machine's Retry and Catch match are the names of geohub errors", async () => {
    const asl = readFileSync(join(root, 'statemachine/geohub.asl.json'), 'utf8');
    const matched = new Set(
      [...asl.matchAll(/"ErrorEquals":\s*\[([^\]]*)\]/g)].flatMap(
        ([, list]) => JSON.parse(`[${list}]`) as string[],
      ),
    );
    const ours = [...matched].filter((n) => !n.startsWith('States.') && !n.startsWith('Lambda.'));
    expect(ours.length).toBeGreaterThan(0);
    const names = new Set((await errorClasses()).map((c) => c.name));
    for (const name of ours) expect(names, `${name} in the ASL`).toContain(name);
  });

  it('the local Lambda limits carry the error names AWS Lambda reports', async () => {
    const { LambdaLimitError } = await import('../../../../local/statemachine/lambda-pool.js');
    const error = new LambdaLimitError('Sandbox.Timedout', 'Task timed out after 3.00 seconds');
    expect(error).toBeInstanceOf(GeohubError);
    expect(error.name).toBe('Sandbox.Timedout');
  });

  it("the local IAM's refusal of a task carries the error name AWS reports (AccessDeniedException)", async () => {
    const { LocalAccessDeniedError } = await import('../../../../local/iam/errors.js');
    const error = new LocalAccessDeniedError('not authorized', { cause: new Error('x') });
    expect(error).toBeInstanceOf(GeohubError);
    expect(error.name).toBe('AccessDeniedException');
    expect(error.cause).toBeInstanceOf(Error);
  });
});
