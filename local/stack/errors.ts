import { GeohubError } from '../../lib/errors/geohub-error.js';

/** An emulator of the local stack did not start, or is not healthy. */
export class StackStartError extends GeohubError {
  override readonly name = 'StackStartError';
}

/** serverless.yml does not hold the resources the local stack needs. */
export class ResourceDefinitionError extends GeohubError {
  override readonly name = 'ResourceDefinitionError';
}
