import { z } from 'zod';
import type { OperationName } from '../../../../lib/model/run.js';

/**
 * How a run's tiles are drawn: RGB(A) bytes as they are; a terrain model as a hillshade; any
 * other raster as its first band through a colour ramp scaled by the run's own statistics.
 */
export type RenderStyle =
  | { readonly kind: 'rgb'; readonly bands: readonly number[]; readonly alpha: 'band' | 'mask' }
  | { readonly kind: 'hillshade' }
  | { readonly kind: 'ramp' };

/** What `gdalinfo -json` says of a tile's bands (only the fields used here). */
export const bandsInfoSchema = z.looseObject({
  bands: z.array(
    z.looseObject({
      band: z.number().int(),
      type: z.string(),
      colorInterpretation: z.string().optional(),
    }),
  ),
});
export type BandsInfo = z.infer<typeof bandsInfoSchema>;

export function renderStyleOf(operation: OperationName, info: BandsInfo): RenderStyle {
  if (operation === 'pointcloud-dtm') return { kind: 'hillshade' };
  const { bands } = info;
  const bytes = bands.length >= 3 && bands.slice(0, 3).every((b) => b.type === 'Byte');
  if (!bytes) return { kind: 'ramp' };
  const alpha = bands.find((b) => b.colorInterpretation === 'Alpha');
  return alpha
    ? { kind: 'rgb', bands: [1, 2, 3, alpha.band], alpha: 'band' }
    : { kind: 'rgb', bands: [1, 2, 3], alpha: 'mask' };
}
