import { zodProblems } from '../model/zod-problems.js';
import { type CollectionManifest, collectionManifestSchema } from './collection-manifest.js';
import { InvalidCollectionError } from './errors.js';
import { membersOfItemCollection } from './stac-item-collection.js';

/**
 * Parses an untrusted manifest — geohub's, or a STAC ItemCollection whose items' data assets are
 * in `bucket` — every problem named, with where it is.
 */
export function parseCollectionManifest(text: string, where: string, bucket: string): CollectionManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidCollectionError(`${where} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const given =
    (json as { type?: unknown } | null)?.type === 'FeatureCollection'
      ? membersOfItemCollection(json, where, bucket)
      : json;
  const parsed = collectionManifestSchema.safeParse(given);
  if (!parsed.success) {
    throw new InvalidCollectionError(`${where} is not a collection manifest: ${zodProblems(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
