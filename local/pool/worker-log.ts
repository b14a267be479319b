import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** What the pool learns from one worker log line: the tool group it started, what it is doing. */
export interface WorkerLogLine {
  readonly line: string;
  readonly parsed: Record<string, unknown> | undefined;
  /** The process group of a tool the worker just started. */
  readonly toolGroup?: number;
  readonly doing?: { runId?: string; tileId?: string; msg: string; at: string };
}

/** Reads a worker's structured log (JSON lines on stderr); a line that is not JSON is passed on as is. */
export function followWorkerLog(stderr: Readable, onLine: (line: WorkerLogLine) => void): void {
  createInterface({ input: stderr }).on('line', (line) => {
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      parsed = undefined;
    }
    if (!parsed) return onLine({ line, parsed });
    onLine({
      line,
      parsed,
      toolGroup: parsed.msg === 'tool started' && typeof parsed.pid === 'number' ? parsed.pid : undefined,
      doing: {
        runId: parsed.runId as string | undefined,
        tileId: parsed.tileId as string | undefined,
        msg: String(parsed.msg),
        at: String(parsed.time ?? new Date().toISOString()),
      },
    });
  });
}
