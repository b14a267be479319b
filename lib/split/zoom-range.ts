/** The deepest zoom a job may ask for. */
export const MAX_JOB_ZOOM = 22;

/** The levels a job asks for: `max` is the base level, warped from the source. */
export interface ZoomRange {
  readonly min: number;
  readonly max: number;
}

/**
 * A pyramid's levels written "min-max" (e.g. "10-17"), or why they are not: the one rule the
 * sidecar's schema and the CLI's `--zoom` both apply. No import beyond this file (the CLI's
 * start-up loads it).
 */
export function parseZoomRange(text: string): ZoomRange | string {
  const match = /^(\d{1,2})-(\d{1,2})$/.exec(text);
  if (!match) return 'must be a zoom level or a range "min-max", e.g. "10-17"';
  const min = Number(match[1]);
  const max = Number(match[2]);
  if (max > MAX_JOB_ZOOM) return `a zoom is at most ${MAX_JOB_ZOOM}`;
  if (min > max) return 'the range must go from low to high';
  return { min, max };
}
