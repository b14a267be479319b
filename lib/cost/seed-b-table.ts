import { DEFAULT_SPOT_ASSUMPTIONS, type SpotAssumptions, spotCost } from './spot-cost.js';

/** One row of Seed B's "Where spot stops being cheaper" table: the model beside the seed. */
export interface SeedRow {
  readonly label: string;
  /** What the model gives from the seed's stated inputs. */
  readonly model: number;
  /** What the seed's own arithmetic gives from the same inputs (the figure it prints). */
  readonly seed: number;
  readonly seedWorking: string;
}

/**
 * Seed B's four figures, worked two ways (docs/cost.md). The seed prices every row as
 * price / (1 − rate): one window's work paid again per interruption, which is the model's
 * checkpointed case exactly. Its fourth row applies that to the on-demand price ($0.100), not
 * the spot one, and so neither prices spot nor loses the whole job: the model gives $0.091.
 */
export function seedBTable(a: SpotAssumptions = DEFAULT_SPOT_ASSUMPTIONS): SeedRow[] {
  const spot = a.onDemandPerJob * a.spotRatio;
  const low = spotCost(0.02, a);
  const high = spotCost(0.15, a);
  const worked = (price: number, rate: number, priceName: string) => ({
    seed: price / (1 - rate),
    seedWorking: `${priceName} / (1 - ${rate})`,
  });
  return [
    { label: 'on-demand', model: low.onDemand, ...worked(a.onDemandPerJob, 0, 'on-demand') },
    {
      label: 'spot, 2% interrupted, checkpointed',
      model: low.spotCheckpointed,
      ...worked(spot, 0.02, 'spot'),
    },
    {
      label: 'spot, 15% interrupted, checkpointed',
      model: high.spotCheckpointed,
      ...worked(spot, 0.15, 'spot'),
    },
    {
      label: 'spot, 15% interrupted, no checkpoints',
      model: high.spotWithoutCheckpoints,
      ...worked(a.onDemandPerJob, 0.15, 'on-demand'),
    },
  ];
}
