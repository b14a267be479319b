import { describe, expect, it } from 'vitest';
import { interruptionLoss } from '../../../../lib/cost/interruption-loss.js';
import { seedBTable } from '../../../../lib/cost/seed-b-table.js';
import { DEFAULT_SPOT_ASSUMPTIONS, spotCost } from '../../../../lib/cost/spot-cost.js';

// Seed B, "Where spot stops being cheaper": the figures it prints, to the tenth of a cent.
const SEED = [0.1, 0.034, 0.039, 0.118];
const within = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThan(0.0005);

describe('the spot cost model against Seed B (issue 35)', () => {
  it('takes only the inputs the seed states', () => {
    expect(DEFAULT_SPOT_ASSUMPTIONS).toEqual({
      onDemandPerJob: 0.1,
      spotRatio: 1 / 3,
      jobMinutes: 40,
      subTileMinutes: 4,
      warningMinutes: 2,
      restartMinutes: 0,
    });
  });

  it('gives the on-demand row and both checkpointed rows to ±$0.0005', () => {
    const rows = seedBTable();
    for (const i of [0, 1, 2]) within(rows[i]!.model, SEED[i]!);
    within(spotCost(0.02).spotCheckpointed, 0.034);
    within(spotCost(0.15).spotCheckpointed, 0.039);
  });

  it("pins both values of the row where the seed's arithmetic slips: $0.118 (seed) and $0.091 (model)", () => {
    const row = seedBTable()[3]!;
    // The seed's working, from its own inputs: $0.100 / (1 − 0.15).
    within(row.seed, 0.118);
    // The model: 10 clean 4-minute windows in a row at 15 % per window, a third of the price.
    within(row.model, 0.0907);
    within(spotCost(0.15).spotWithoutCheckpoints, 0.0907);
  });

  it("reproduces every printed figure with the seed's own arithmetic", () => {
    for (const [i, row] of seedBTable().entries()) within(row.seed, SEED[i]!);
  });

  it('without checkpoints, spot passes on-demand only above about 16 % (not at the seed’s 15 %)', () => {
    expect(spotCost(0.16).spotWithoutCheckpoints).toBeLessThan(0.1);
    expect(spotCost(0.17).spotWithoutCheckpoints).toBeGreaterThan(0.1);
  });

  it('loses 28 minutes without checkpoints and 4 with them when a 40-minute job is struck at minute 28', () => {
    expect(interruptionLoss(28)).toEqual({ atMinute: 28, withoutCheckpoints: 28, checkpointed: 4 });
    // A sub-tile that fits in the 2-minute warning is finished: nothing in flight is lost.
    expect(interruptionLoss(28, { ...DEFAULT_SPOT_ASSUMPTIONS, subTileMinutes: 1 }).checkpointed).toBe(0);
    expect(() => interruptionLoss(40)).toThrow(RangeError);
  });
});
