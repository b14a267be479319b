import { basename } from 'node:path';
import type { Command } from 'commander';
import type { RedriveReport } from '../../../lib/coordination/redrive.js';
import type { ExecutionLink } from '../../../lib/ledger/execution-chain.js';
import type { RunRecord } from '../../../lib/model/run.js';
import type { CapacityView } from '../../hub/capacity-controller.js';
import { plainFileName } from '../../server/plain-file-name.js';
import { callApi, portOf } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { checkRoomForCopy } from '../free-space.js';
import { checkInputFile } from '../input-file.js';
import { type CliIo, emit, intOption, ZOOM_HELP, zoomOption } from '../io.js';
import { createUploadProgress } from '../upload-progress.js';
import { uploadToUp } from '../upload-to-up.js';

type RunView = RunRecord & {
  execution?: { status: string; state?: string; error?: string };
  executions?: (ExecutionLink & { name: string; historyEvents?: number })[];
  capacity?: CapacityView;
};

/** One line per execution of the run's chain: how it started, how it ended, and why. */
const chainLines = (r: RunView) =>
  (r.executions ?? []).map((e, i) => {
    const events = e.historyEvents === undefined ? '' : `, ${e.historyEvents} history events`;
    const why = e.error ? ` — ${e.error}${e.cause ? `: ${e.cause}` : ''}` : '';
    return `  ${i + 1}. ${e.name}  ${e.status} (${e.reason}, started ${e.startedAt}${events})${why}`;
  });

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
      .option('--zoom <z>', ZOOM_HELP, zoomOption)
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (file: string, opts: { zoom?: number | string; port?: number; json?: boolean }) => {
    // The file is read here, as the user, and streamed: the server opens no path it is sent.
    // The server keeps a copy in the local bucket, as `geohub run` does: the same checks first.
    const input = await checkInputFile(file);
    await checkRoomForCopy(file, input.path);
    // The server refuses such a name too (receive-upload.ts): said before a byte is sent.
    const name = plainFileName.safeParse(basename(input.path));
    if (!name.success) {
      throw new CliError(
        `cannot send ${JSON.stringify(file)}: its name must be ${name.error.issues[0]!.message}`,
      );
    }
    const query = new URLSearchParams({
      name: name.data,
      ...(opts.zoom === undefined ? {} : { zoom: String(opts.zoom) }),
    });
    const sending = createUploadProgress(io.stderr);
    const storing = createUploadProgress(io.stderr, Date.now, 'storing in the bucket');
    const r = await uploadToUp<{ outcome: string; runId?: string; reason?: string }>(
      port(opts),
      `/api/uploads?${query}`,
      input,
      {
        env: io.env,
        onSent: (sent, total) => sending.update(sent, total),
        onStored: (stored, total) => {
          sending.stop();
          storing.update(stored, total);
        },
      },
    ).finally(() => {
      sending.stop();
      storing.stop();
    });
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
          r.executions?.length ? `executions (${r.executions.length}):` : '',
          ...chainLines(r),
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
