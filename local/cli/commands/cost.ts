import type { Command } from 'commander';
import { interruptionLoss } from '../../../lib/cost/interruption-loss.js';
import { seedBTable } from '../../../lib/cost/seed-b-table.js';
import {
  breakEvenRate,
  DEFAULT_SPOT_ASSUMPTIONS,
  type SpotAssumptions,
  spotCost,
} from '../../../lib/cost/spot-cost.js';
import { CliError } from '../cli-error.js';
import { type CliIo, DECIMAL, emit, positiveDecimal } from '../io.js';

const money = (n: number) => `$${n.toFixed(3)}`;

export function registerCost(program: Command, io: CliIo): void {
  program
    .command('cost')
    .description(
      'the spot cost model: effective cost per completed tile, on-demand vs spot, with and without sub-tile checkpoints',
    )
    .option('--rates <list>', 'interruption rates (chance per sub-tile window)', '0.02,0.05,0.10,0.15')
    .option(
      '--on-demand <usd>',
      'cost of one tile job on on-demand capacity',
      positiveDecimal,
      DEFAULT_SPOT_ASSUMPTIONS.onDemandPerJob,
    )
    .option(
      '--spot-ratio <r>',
      'spot price as a fraction of on-demand',
      positiveDecimal,
      DEFAULT_SPOT_ASSUMPTIONS.spotRatio,
    )
    .option(
      '--job-minutes <m>',
      'length of one tile job',
      positiveDecimal,
      DEFAULT_SPOT_ASSUMPTIONS.jobMinutes,
    )
    .option(
      '--subtile-minutes <m>',
      'length of one sub-tile',
      positiveDecimal,
      DEFAULT_SPOT_ASSUMPTIONS.subTileMinutes,
    )
    .option(
      '--warning-minutes <m>',
      'notice before the instance is reclaimed',
      positiveDecimal,
      DEFAULT_SPOT_ASSUMPTIONS.warningMinutes,
    )
    .option(
      '--restart-minutes <m>',
      'paid per interruption (new capacity, start-up)',
      positiveDecimal,
      DEFAULT_SPOT_ASSUMPTIONS.restartMinutes,
    )
    .option(
      '--interrupted-at <m>',
      'minute of the job an interruption strikes, for the loss example',
      positiveDecimal,
      28,
    )
    .option('--json', 'print one JSON object on stdout')
    .action((opts: Record<string, string | number | boolean | undefined>) => {
      const assumptions: SpotAssumptions = {
        onDemandPerJob: Number(opts.onDemand),
        spotRatio: Number(opts.spotRatio),
        jobMinutes: Number(opts.jobMinutes),
        subTileMinutes: Number(opts.subtileMinutes),
        warningMinutes: Number(opts.warningMinutes),
        restartMinutes: Number(opts.restartMinutes),
      };
      const given = String(opts.rates)
        .split(',')
        .map((r) => r.trim());
      const rates = given.map((r) => (DECIMAL.test(r) ? Number(r) : Number.NaN));
      if (rates.some((r) => !(r >= 0 && r < 1)))
        throw new CliError('--rates takes decimal numbers in [0, 1), comma-separated, such as 0.02,0.05');
      const rows = rates.map((r) => spotCost(r, assumptions));
      // Past this rate new workers go on-demand (the spot → on-demand fallback).
      const breakEven = breakEvenRate(assumptions);
      const seed = seedBTable(assumptions);
      const loss = interruptionLoss(Number(opts.interruptedAt), assumptions);
      emit(io, Boolean(opts.json), { assumptions, rows, breakEven, seed, loss }, () => {
        const head = 'interruption rate | on-demand | spot, checkpointed | spot, no checkpoints';
        const body = rows.map(
          (r) =>
            `${`${(r.rate * 100).toFixed(0)} %`.padStart(17)} | ${money(r.onDemand).padStart(9)} | ${money(r.spotCheckpointed).padStart(18)} | ${money(r.spotWithoutCheckpoints).padStart(20)}${r.spotWithoutCheckpoints > r.onDemand ? '  (worse than on-demand)' : ''}`,
        );
        const a = assumptions;
        const width = Math.max(...seed.map((r) => r.label.length));
        const seedRows = seed.map(
          (r) =>
            `${r.label.padEnd(width)} | ${money(r.model).padStart(6)} | ${money(r.seed).padStart(6)}` +
            (Math.abs(r.model - r.seed) >= 0.0005
              ? `  (the seed's arithmetic: ${r.seedWorking}, docs/cost.md)`
              : ''),
        );
        return [
          'Effective cost per completed tile (compute only):',
          head,
          ...body,
          '',
          "Seed B's table, from its stated inputs:",
          `${''.padEnd(width)} |  model |   seed`,
          ...seedRows,
          '',
          `A ${a.jobMinutes}-minute job interrupted at minute ${loss.atMinute} loses ${loss.withoutCheckpoints} minutes without checkpoints ` +
            `and ${loss.checkpointed} with them (the sub-tile in flight).`,
          '',
          `Break-even interruption rate: ${(breakEven * 100).toFixed(1)} %: above it checkpointed spot costs more than on-demand, ` +
            'and the worker pool starts new workers on on-demand capacity until the observed rate falls again.',
          '',
          `Assumptions: on-demand ${money(a.onDemandPerJob)} per ${a.jobMinutes}-minute job; spot at ${Number(a.spotRatio.toFixed(4))} of on-demand; ` +
            `${a.subTileMinutes}-minute sub-tiles; ${a.warningMinutes}-minute warning; ${a.restartMinutes} minutes lost to each restart; ` +
            'the rate is the chance of an interruption during any one sub-tile-length window.',
        ].join('\n');
      });
    });
}
