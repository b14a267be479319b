import type { FunctionDeps } from './deps.js';

/** A Lambda task: made once per container from its dependencies, then called per event. */
export type FunctionTask = (deps: FunctionDeps) => (event: unknown) => Promise<unknown>;

interface FunctionEntry {
  /** The ASL state that invokes it, for a state-machine task. */
  readonly state?: string;
  /**
   * How a local Lambda container loads its task: its own code only, as its bundle holds only
   * that (the split's 8 MB CRS registry is not parsed in every container). Absent: the local hub
   * calls the function in its own process (it starts executions with the hub's starter, or is an
   * event source's target: an upload, an execution's end, a schedule).
   */
  readonly container?: () => Promise<FunctionTask>;
}

/**
 * Every Lambda function, once, by its handler file's name (`functions/<name>.ts`, the name its
 * role's principal has in local/iam). serverless.yml deploys exactly these and the state machine
 * invokes exactly the ones with a state (test/unit/functions/registry.test.ts); the local hub's
 * containers and task handlers are derived from it.
 */
export const FUNCTIONS = {
  'on-upload': {},
  split: { state: 'Split', container: async () => (await import('./split.js')).splitTask as FunctionTask },
  enqueue: {
    state: 'Enqueue',
    container: async () => (await import('./enqueue.js')).enqueueTask as FunctionTask,
  },
  'check-progress': {
    state: 'CheckProgress',
    container: async () => (await import('./check-progress.js')).checkProgressTask as FunctionTask,
  },
  'hand-over': { state: 'HandOver' },
  drain: { state: 'Drain', container: async () => (await import('./drain.js')).drainTask as FunctionTask },
  finalize: {
    state: 'Finalize',
    container: async () => (await import('./finalize.js')).finalizeTask as FunctionTask,
  },
  'mark-failed': {
    state: 'MarkFailed',
    container: async () => (await import('./mark-failed.js')).markFailedTask as FunctionTask,
  },
  'on-execution-status': {},
  reaper: {},
  redrive: {},
  capacity: {},
} as const satisfies Record<string, FunctionEntry>;

export type FunctionName = keyof typeof FUNCTIONS;

type Contained = {
  [K in FunctionName]: (typeof FUNCTIONS)[K] extends { container: unknown } ? K : never;
}[FunctionName];

/** The functions run in local Lambda containers: the state machine's tasks but the hand-over. */
export const CONTAINER_FUNCTIONS = (Object.keys(FUNCTIONS) as FunctionName[]).filter(
  (name): name is Contained => 'container' in FUNCTIONS[name],
);

/** The ASL state of each container function. */
export type ContainerState = (typeof FUNCTIONS)[Contained]['state'];
