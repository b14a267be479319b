import { GeohubError } from '../errors/geohub-error.js';

/** The environment does not describe a usable deployment; raised once, at start-up. */
export class ConfigError extends GeohubError {
  override readonly name = 'ConfigError';
}
