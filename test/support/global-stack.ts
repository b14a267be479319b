import type { TestProject } from 'vitest/node';
import { type LocalStack, startLocalStack } from '../../local/stack/stack.js';

let stack: LocalStack | undefined;

/** One local stack for the whole integration suite, stopped by PID whatever the outcome. */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  stack = await startLocalStack();
  project.provide('stackEnv', { ...stack.env });
  project.provide('stackPids', [...stack.pids]);
  return async () => {
    await stack?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
    stackPids: number[];
  }
}
