import { GeohubError } from '../errors/geohub-error.js';

/** A pyramid's levels do not fit together (a defect of the planning, never of the input). */
export class PyramidPlanError extends GeohubError {
  override readonly name = 'PyramidPlanError';
}
