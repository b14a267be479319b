import { GeohubError } from '../errors/geohub-error.js';

/** A pyramid's levels do not fit together (a defect of the planning, never of the input). */
export class PyramidPlanError extends GeohubError {
  override readonly name = 'PyramidPlanError';
}

/** A lower-level tile's children could not be read (an object gone or not what its marker says). */
export class ChildTilesError extends GeohubError {
  override readonly name = 'ChildTilesError';
}
