import type { Command } from 'commander';
import { ENDED_RUN_STATUSES } from '../../../lib/model/run.js';
import type { CapacityView } from '../../hub/capacity-controller.js';
import { CliError } from '../cli-error.js';
import { type CliIo, emit } from '../io.js';
import type { RunView } from '../operator/operator.js';
import { type TargetOptions, targetOptions, withOperator } from '../operator/operator-of.js';
import { prepareOutputDir } from '../output-dir.js';
import { createProgress } from '../progress.js';

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

/** A run's detail: its line, breaker and retries, its execution and their chain, the pool. */
const detailLines = (r: RunView) =>
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
    .join('\n');

const ENDED = new Set<string>(ENDED_RUN_STATUSES);
/** How often `status --watch` looks at the run (a `geohub up` answers at once when it ends). */
const WATCH_MS = 1_000;

export function registerControl(program: Command, io: CliIo): void {
  type Opts = TargetOptions & { json?: boolean };

  targetOptions(
    program
      .command('status')
      .description('the runs of a running `geohub up` or a deployed stage, or one run in detail')
      .argument('[runId]')
      .option('--watch', 'follow the run with a progress bar until it ends')
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (runId: string | undefined, opts: Opts & { watch?: boolean }) => {
    if (opts.watch && !runId) throw new CliError('--watch follows one run: name its id');
    await withOperator(io, opts, async (op) => {
      if (!runId) {
        const [runs, queues] = await Promise.all([op.runs(), op.queues()]);
        emit(io, opts.json, { runs, queues }, () =>
          [
            runs.length === 0 ? 'no runs yet' : runs.map(line).join('\n'),
            `queue: ${queues.work.visible} waiting, ${queues.work.inFlight} in flight; dead letters: ${queues.deadLetters.visible}`,
          ].join('\n'),
        );
        return;
      }
      let r = await op.run(runId);
      if (opts.watch) {
        const progress = createProgress(io.stderr);
        try {
          while (!ENDED.has(r.status)) {
            progress.update(r);
            r = await op.run(runId, WATCH_MS);
            // A target that cannot wait for the end (a stage) is asked again a second later.
            if (!ENDED.has(r.status) && !op.where.startsWith('geohub up'))
              await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
          }
          progress.update(r);
        } finally {
          progress.stop();
        }
        if (r.status !== 'SUCCEEDED') io.exitCode = 1;
      }
      emit(io, opts.json, r, () => detailLines(r));
    });
  });

  targetOptions(
    program
      .command('cancel')
      .description('cancel a run: its execution is stopped, in-flight tools killed, queued work parked')
      .argument('<runId>')
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (runId: string, opts: Opts) => {
    const r = await withOperator(io, opts, (op) => op.cancel(runId));
    emit(io, opts.json, r, () => line(r));
  });

  targetOptions(
    program
      .command('redrive')
      .description('send dead-lettered and parked work back with a fresh budget (all runs, or one)')
      .option('--run <id>', 'only this run')
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (opts: Opts & { run?: string }) => {
    const r = await withOperator(io, opts, (op) => op.redrive(opts.run));
    emit(io, opts.json, r, () =>
      r.runs.length === 0
        ? 'nothing to re-drive'
        : r.runs
            .map((x) => `${x.runId}: ${x.fromDeadLetters} from the DLQ, ${x.unparked} unparked`)
            .join('\n'),
    );
  });

  targetOptions(
    program
      .command('verify')
      .description('check a run: every marker has its object, no .part left, no orphaned tool, no claim held')
      .argument('<runId>')
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (runId: string, opts: Opts) => {
    const r = await withOperator(io, opts, (op) => op.verify(runId));
    emit(io, opts.json, r, () =>
      [
        `${r.ok ? 'OK' : 'PROBLEMS'}: ${r.markers} markers, ${r.objects} objects, ${r.claimsHeld} claims held`,
        ...r.gaps.map((g) => `gap: ${g.key} (${g.problem})`),
        ...r.parts.map((p) => `leftover: ${p}`),
        ...r.orphans.map((o) => `orphan: ${o.pid} ${o.command}`),
        r.unseen ? `not checked: ${r.unseen}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
    if (!r.ok) io.exitCode = 1;
  });

  targetOptions(
    program
      .command('get')
      .description(
        "download a run's outputs (tiles, mosaic, STAC, summary) into --out; an interrupted download resumes",
      )
      .argument('<runId>')
      .requiredOption('--out <dir>', "where the outputs go (new, empty, or this run's earlier download)")
      .option('--replace', "replace another run's outputs in --out")
      .option('--json', 'print one JSON object on stdout'),
  ).action(async (runId: string, opts: Opts & { out: string; replace?: boolean }) => {
    const out = await prepareOutputDir(opts.out, opts.replace ?? false, runId);
    const copied = await withOperator(io, opts, async (op) => {
      const run = await op.run(runId);
      if (run.status !== 'SUCCEEDED')
        io.stderr.write(`geohub get: run ${runId} is ${run.status}: its outputs may be partial\n`);
      return op.copyOutputs(runId, out, out.resumes ?? false);
    });
    const r = { runId, out: out.path, copied, resumed: out.resumes ?? false };
    emit(
      io,
      opts.json,
      r,
      () =>
        `${copied} objects copied into ${out.path}${r.resumed ? ' (resumed: the tiles already there kept)' : ''}`,
    );
  });
}
