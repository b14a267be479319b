import cliProgress from 'cli-progress';
import type { RunRecord } from '../../lib/model/run.js';

export interface ProgressReporter {
  update(run: RunRecord): void;
  stop(): void;
}

/**
 * Sub-tiles done/failed, rate and ETA: a live bar on a terminal, a plain line every few
 * seconds otherwise (logs, CI). Always on stderr: stdout is for the result.
 */
export function createProgress(
  stream: NodeJS.WriteStream = process.stderr,
  now = Date.now,
): ProgressReporter {
  const started = now();
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format:
          ' {bar} {value}/{total} sub-tiles | {failed} failed | {rate}/s | ETA {eta_formatted} | {status}',
        hideCursor: true,
        etaBuffer: 20,
      },
      cliProgress.Presets.shades_classic,
    );
    let begun = false;
    return {
      update(run) {
        const c = run.counters;
        const payload = { failed: c.failed, status: run.status, rate: rateOf(c.done, started, now()) };
        if (!begun && c.total > 0) {
          bar.start(c.total, c.done, payload);
          begun = true;
        } else if (begun) {
          bar.setTotal(c.total);
          bar.update(c.done, payload);
        }
      },
      stop() {
        if (begun) bar.stop();
      },
    };
  }
  let last = 0;
  let lastLine = '';
  return {
    update(run) {
      const c = run.counters;
      const rate = rateOf(c.done, started, now());
      const left = c.total - c.done - c.failed - c.parked - c.cancelled;
      const eta = Number(rate) > 0 ? `${Math.ceil(left / Number(rate))} s` : '?';
      const line = `${run.status.toLowerCase()}: ${c.done}/${c.total} sub-tiles done, ${c.failed} failed, ${rate}/s, ETA ${eta}`;
      if (line !== lastLine && (now() - last >= 2_000 || run.status !== 'RUNNING')) {
        stream.write(`${line}\n`);
        last = now();
        lastLine = line;
      }
    },
    stop() {},
  };
}

function rateOf(done: number, started: number, at: number): string {
  const seconds = Math.max((at - started) / 1000, 0.001);
  return (done / seconds).toFixed(1);
}
