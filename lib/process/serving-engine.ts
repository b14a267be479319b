import { EngineBusyError } from './errors.js';
import { type StartedProcess, startProcess } from './start-process.js';

/** Where and how an engine is started; an engine serves only requests with the very same. */
export interface EngineSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** How one request ended: the engine said it was done (and serves on), or it exited. */
export type EngineOutcome =
  | { readonly kind: 'done'; readonly stderr: string }
  | {
      readonly kind: 'exit';
      readonly exitCode: number | undefined;
      readonly signal: string | undefined;
      readonly stderr: string;
      readonly failure?: { readonly code?: string; readonly message?: string };
    };

export interface ServingEngine {
  readonly process: StartedProcess;
  /** Requests it has completed. */
  readonly served: number;
  /** Sends one request line; settles when the engine answers it or exits. */
  request(input: string): Promise<EngineOutcome>;
  alive(): boolean;
}

/** The stderr kept for a request's error message: its last bytes are what GDAL said last. */
const STDERR_KEPT = 64 * 1024;

/**
 * Starts an engine that serves requests one line at a time on its stdin (`--serve`): it answers
 * each with a line `{"done": n}` on stdout once the request's outputs are written and closed, and
 * exits at end of file. Its output is read as it comes, never buffered whole: it lives for many
 * requests. The caller supervises it (engine-pool.ts): timeouts and cancels kill its group.
 */
export function startServingEngine(spec: EngineSpec): ServingEngine {
  const process = startProcess(spec.file, [...spec.args, '--serve'], {
    env: spec.env,
    cwd: spec.cwd,
    input: true,
    stream: true,
  });
  const { child } = process;
  let stderr = '';
  let stdout = '';
  let served = 0;
  let answer: ((outcome: EngineOutcome) => void) | undefined;
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-STDERR_KEPT);
  });
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    let end = stdout.indexOf('\n');
    while (end >= 0) {
      const line = stdout.slice(0, end);
      stdout = stdout.slice(end + 1);
      if (isDone(line) && answer) {
        served += 1;
        const settle = answer;
        answer = undefined;
        settle({ kind: 'done', stderr });
      }
      end = stdout.indexOf('\n');
    }
  });
  const exited = child.then((result) => ({
    kind: 'exit' as const,
    exitCode: result.exitCode,
    signal: result.signal,
    stderr,
    failure: result.failed
      ? { code: (result as { code?: string }).code, message: result.shortMessage }
      : undefined,
  }));
  return {
    process,
    get served() {
      return served;
    },
    alive: () => child.exitCode === null && child.signalCode === null && process.pgid !== undefined,
    request(input) {
      if (answer) throw new EngineBusyError('an engine serves one request at a time');
      stderr = '';
      const done = new Promise<EngineOutcome>((resolve) => {
        answer = resolve;
      });
      child.stdin?.write(`${input.replaceAll('\n', ' ')}\n`);
      return Promise.race([done, exited]).finally(() => {
        answer = undefined;
      });
    },
  };
}

function isDone(line: string): boolean {
  try {
    const parsed = JSON.parse(line) as { done?: unknown };
    return typeof parsed.done === 'number';
  } catch {
    return false; // a line of its own the tool printed: not an answer
  }
}
