import { z } from 'zod';

/** One sub-tile: an XYZ tile of the run's zoom, with its deterministic id. */
export const tileTaskSchema = z
  .object({
    id: z.string().regex(/^[0-9a-f]{16}$/, 'a sub-tile id is 16 hex digits'),
    z: z.number().int().min(0).max(24),
    x: z.number().int().min(0),
    y: z.number().int().min(0),
  })
  .strict()
  .refine((t) => t.x < 2 ** t.z && t.y < 2 ** t.z, { message: 'x and y must lie inside the zoom level' });

export type TileTask = z.infer<typeof tileTaskSchema>;
