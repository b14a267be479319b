import { type StartedProcess, standDown, startProcess } from './start-process.js';

/** Where and how a tool is started; a spare serves only a take with the very same. */
export interface SpareSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export interface WarmSpares {
  /**
   * A process for `spec`, its stdin open for the tool's input: the spare started for it earlier
   * when there is a live one, a fresh start otherwise. Either way the next spare starts now, so
   * its start-up (the interpreter, GDAL's import) overlaps the work of the one taken.
   */
  take(spec: SpareSpec): StartedProcess;
  /** Ends the waiting spare (SIGKILL: it holds no output). Takes after this start cold. */
  close(): void;
}

const keyOf = (spec: SpareSpec) => JSON.stringify([spec.file, spec.args, spec.env, spec.cwd]);
const alive = (p: StartedProcess) => p.child.exitCode === null && p.child.signalCode === null;

/**
 * One process kept started ahead of need, for a tool that reads its input on stdin: the metatile
 * engine spends about as long starting (Python, importing GDAL) as warping a Byte metatile
 * (docs/architecture.md#metatiles). A spare does nothing until given its input: it creates no
 * output, and exits at end-of-file, so a worker that dies leaves no spare behind.
 */
export function createWarmSpares(): WarmSpares {
  let spare: { key: string; process: StartedProcess } | undefined;
  let closed = false;
  const dismiss = () => {
    if (spare?.process.pgid !== undefined) standDown(spare.process.pgid);
    spare = undefined;
  };
  const start = (spec: SpareSpec) =>
    startProcess(spec.file, spec.args, { env: spec.env, cwd: spec.cwd, input: true });
  return {
    take(spec) {
      const key = keyOf(spec);
      const warm = spare?.key === key && alive(spare.process) ? spare.process : undefined;
      if (warm) spare = undefined;
      else dismiss(); // another tool, another run's environment, or one that died waiting
      const taken = warm ?? start(spec);
      if (!closed) spare = { key, process: start(spec) };
      return taken;
    },
    close() {
      closed = true;
      dismiss();
    },
  };
}
