import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTAINER_FUNCTIONS, FUNCTIONS } from '../../../functions/registry.js';
import { SERVERLESS_FILE } from '../../../local/stack/serverless-document.js';
import { DEFINITION_FILE } from '../../../local/statemachine/definition.js';
import { readLambdaLimits } from '../../../local/statemachine/lambda-limits.js';
import { HANDLER_FILES } from '../../support/serverless-template.js';

/** The ASL's Task states and the function each invokes: `${CheckProgressFunctionArn}` → check-progress. */
function aslTasks(): Map<string, string> {
  const asl = JSON.parse(readFileSync(DEFINITION_FILE, 'utf8')) as { States: Record<string, unknown> };
  const tasks = new Map<string, string>();
  const visit = (states: Record<string, unknown>) => {
    for (const [name, state] of Object.entries(states)) {
      const s = state as {
        Type?: string;
        Resource?: string;
        Branches?: { States: Record<string, unknown> }[];
      };
      const placeholder = s.Resource?.match(/^\$\{(\w+)FunctionArn\}$/)?.[1];
      if (s.Type === 'Task' && placeholder)
        tasks.set(
          name,
          placeholder.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? '' : '-') + c.toLowerCase()),
        );
      for (const branch of s.Branches ?? []) visit(branch.States);
    }
  };
  visit(asl.States);
  return tasks;
}

/** What a registry must agree with, from a serverless.yml: the functions it deploys. */
const deployed = (file = SERVERLESS_FILE) => Object.keys(readLambdaLimits(file)).sort();

describe('one registry of functions (functions/registry.ts)', () => {
  const names = Object.keys(FUNCTIONS).sort();

  it('serverless.yml deploys exactly the registered functions, each a handler file', () => {
    expect(deployed()).toEqual(names);
    expect([...HANDLER_FILES].sort()).toEqual(names);
  });

  // The bug it catches: a function added to serverless.yml only, which the local hub would never
  // run (no container, no task handler, no principal), so nothing local would notice.
  it('a function added to serverless.yml only is found', () => {
    const text = readFileSync(SERVERLESS_FILE, 'utf8').replace(
      '\nfunctions:\n',
      '\nfunctions:\n  tidy:\n    name: geohub-tidy\n    handler: functions/tidy.handler\n\n',
    );
    const file = join(mkdtempSync(join(tmpdir(), 'registry-')), 'serverless.yml');
    writeFileSync(file, text);
    expect(deployed(file)).toContain('tidy');
    expect(deployed(file)).not.toEqual(names);
  });

  it('the state machine invokes exactly the registered tasks, each from its own state', () => {
    const registered = Object.entries(FUNCTIONS)
      .filter(([, f]) => 'state' in f)
      .map(([name, f]) => [(f as { state: string }).state, name] as const);
    expect(new Map(registered)).toEqual(aslTasks());
  });

  it('every task but the hand-over runs in a container, and loads its task', async () => {
    expect([...CONTAINER_FUNCTIONS].sort()).toEqual(
      [...aslTasks().values()].filter((f) => f !== 'hand-over').sort(),
    );
    for (const name of CONTAINER_FUNCTIONS)
      expect(typeof (await FUNCTIONS[name].container()), name).toBe('function');
  });
});
