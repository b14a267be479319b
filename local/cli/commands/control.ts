import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { RedriveReport } from '../../../lib/coordination/redrive.js';
import type { RunRecord } from '../../../lib/model/run.js';
import type { CapacityView } from '../../hub/capacity-controller.js';
import { callApi, portOf } from '../api-client.js';
import { checkInputFile } from '../input-file.js';
import { type CliIo, emit, intOption } from '../io.js';
import { createUploadProgress } from '../upload-progress.js';

type RunView = RunRecord & {
  execution?: { status: string; state?: string; error?: string };
  capacity?: CapacityView;
};

const percent = (x: number) => `${(x * 100).toFixed(0)} %`;
/** Spot and on-demand workers, why, and what the mix costs (local/hub/capacity-controller.ts). */
const capacityLines = (c: CapacityView) => [
  `capacity: ${c.workers.spot} spot + ${c.workers.onDemand} on-demand workers, new ones on ${c.mode}; ` +
    `interruption rate ${percent(c.rate)} vs break-even ${percent(c.breakEven)} (${c.switches.length} switches)`,
  `workers' cost so far $${c.cost.total.toFixed(4)}, ${percent(c.cost.onDemandShare)} of the time on-demand ` +
    `(all spot $${c.cost.allSpot.toFixed(4)}, all on-demand $${c.cost.allOnDemand.toFixed(4)})`,
];

const line = (r: RunView) => {
  const c = r.counters;
  const breaker = r.breaker === 'OPEN' ? ' breaker OPEN' : '';
  const state = r.execution?.state ? ` [${r.execution.state}]` : '';
  return `${r.runId}  ${r.status.padEnd(9)}${state}  ${c.done}/${c.total} done, ${c.failed} failed, ${c.parked + c.cancelled} parked${breaker}  ${r.source.key}`;
};

export function registerControl(program: Command, io: CliIo): void {
  const port = (opts: { port?: number }) => portOf(io.env, opts.port);
  const portOption = (c: Command) => c.option('--port <p>', 'port of `geohub up`', intOption(1, 65_535));

  portOption(
    program
      .command('submit')
      .description('start a run on a running `geohub up`: upload <file> to its incoming bucket')
      .argument('<file>')
      .option('--zoom <z>', 'XYZ zoom level', intOption(0, 22))
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (file: string, opts: { zoom?: number; port?: number; json?: boolean }) => {
    // The file is read here, as the user, and streamed: the server opens no path it is sent.
    const input = await checkInputFile(file);
    const query = new URLSearchParams({
      name: basename(input.path),
      ...(opts.zoom === undefined ? {} : { zoom: String(opts.zoom) }),
    });
    const progress = createUploadProgress(io.stderr);
    // Counted as the request reads it (a 'data' listener would start the stream on its own).
    async function* body() {
      let sent = 0;
      for await (const chunk of createReadStream(input.path)) {
        sent += (chunk as Buffer).length;
        progress.update(sent, input.bytes);
        yield chunk as Buffer;
      }
    }
    const r = await callApi<{ outcome: string; runId?: string; reason?: string }>(
      port(opts),
      'POST',
      `/api/uploads?${query}`,
      undefined,
      { env: io.env, stream: { body: body(), bytes: input.bytes } },
    ).finally(() => progress.stop());
    emit(io, opts.json, r, () => `${r.outcome}: run ${r.runId ?? '-'}${r.reason ? ` (${r.reason})` : ''}`);
    if (r.outcome === 'rejected' || r.outcome === 'ignored') io.exitCode = 1;
  });

  portOption(
    program
      .command('status')
      .description('the runs of a running `geohub up`, or one run in detail')
      .argument('[runId]')
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (runId: string | undefined, opts: { port?: number; json?: boolean }) => {
    if (runId) {
      const r = await callApi<RunView>(port(opts), 'GET', `/api/runs/${encodeURIComponent(runId)}`);
      emit(io, opts.json, r, () =>
        [
          line(r),
          `breaker ${r.breaker ?? 'CLOSED'}; interrupted ${r.counters.interrupted}; retried ${r.counters.retried}`,
          r.reason ? `reason: ${r.reason}` : '',
          r.execution ? `execution ${r.execution.status} at ${r.execution.state ?? '-'}` : '',
          ...(r.capacity ? capacityLines(r.capacity) : []),
        ]
          .filter(Boolean)
          .join('\n'),
      );
      return;
    }
    const runs = await callApi<RunView[]>(port(opts), 'GET', '/api/runs');
    emit(io, opts.json, { runs }, () => (runs.length === 0 ? 'no runs yet' : runs.map(line).join('\n')));
  });

  portOption(
    program
      .command('cancel')
      .description('cancel a run: its execution is stopped, in-flight tools killed, queued work parked')
      .argument('<runId>')
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (runId: string, opts: { port?: number; json?: boolean }) => {
    const r = await callApi<RunView>(port(opts), 'POST', `/api/runs/${encodeURIComponent(runId)}/cancel`);
    emit(io, opts.json, r, () => line(r));
  });

  portOption(
    program
      .command('redrive')
      .description('send dead-lettered and parked work back with a fresh budget (all runs, or one)')
      .option('--run <id>', 'only this run')
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (opts: { run?: string; port?: number; json?: boolean }) => {
    const r = await callApi<RedriveReport>(
      port(opts),
      'POST',
      '/api/redrive',
      opts.run ? { runId: opts.run } : {},
    );
    emit(io, opts.json, r, () =>
      r.runs.length === 0
        ? 'nothing to re-drive'
        : r.runs
            .map((x) => `${x.runId}: ${x.fromDeadLetters} from the DLQ, ${x.unparked} unparked`)
            .join('\n'),
    );
  });

  portOption(
    program
      .command('verify')
      .description('check a run: every marker has its object, no .part left, no orphaned tool, no claim held')
      .argument('<runId>')
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (runId: string, opts: { port?: number; json?: boolean }) => {
    const r = await callApi<{
      ok: boolean;
      markers: number;
      objects: number;
      gaps: { key: string; problem: string }[];
      parts: string[];
      orphans: { pid: number; command: string }[];
      claimsHeld: number;
    }>(port(opts), 'GET', `/api/runs/${encodeURIComponent(runId)}/verify`);
    emit(io, opts.json, r, () =>
      [
        `${r.ok ? 'OK' : 'PROBLEMS'}: ${r.markers} markers, ${r.objects} objects, ${r.claimsHeld} claims held`,
        ...r.gaps.map((g) => `gap: ${g.key} (${g.problem})`),
        ...r.parts.map((p) => `leftover: ${p}`),
        ...r.orphans.map((o) => `orphan: ${o.pid} ${o.command}`),
      ].join('\n'),
    );
    if (!r.ok) io.exitCode = 1;
  });
}
