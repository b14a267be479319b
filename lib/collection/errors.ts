import { GeohubError } from '../errors/geohub-error.js';

/** The collection manifest (`*.collection.json`) is not one: bad JSON, bad shape, a bad key. */
export class InvalidCollectionError extends GeohubError {
  override readonly name = 'InvalidCollectionError';
}

/**
 * Members of a collection cannot be read (corrupt, no CRS, another kind of data): the run is
 * refused before any fan-out, each member named in one line with why (`skipUnreadable` skips them).
 */
export class UnreadableMembersError extends GeohubError {
  override readonly name = 'UnreadableMembersError';
}
