import { z } from 'zod';
import { zodProblems } from '../model/zod-problems.js';
import type { CollectionManifest } from './collection-manifest.js';
import { InvalidCollectionError } from './errors.js';

const assetSchema = z.object({ href: z.string().min(1).max(2048), roles: z.array(z.string()).optional() });

/** A STAC ItemCollection (a GeoJSON FeatureCollection of items), as STAC APIs and pystac write one. */
export const stacItemCollectionSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z
    .array(z.object({ id: z.string().optional(), assets: z.record(z.string(), assetSchema) }))
    .min(1),
});

/** Where an asset is data geohub reads: by its role, else by its file's extension. */
const DATA_FILE = /\.(tiff?|las|laz)$/i;

/**
 * The members of a STAC ItemCollection: each item's data asset (role `data`, else the first asset
 * whose file is a GeoTIFF or LAS/LAZ), an `s3://` address in this deployment's bucket. Items carry
 * no ETag: each member is pinned to the version the split finds (read-members.ts), as a single
 * upload is pinned to the version its event names.
 */
export function membersOfItemCollection(json: unknown, where: string, bucket: string): CollectionManifest {
  const parsed = stacItemCollectionSchema.safeParse(json);
  if (!parsed.success)
    throw new InvalidCollectionError(`${where} is not a STAC ItemCollection: ${zodProblems(parsed.error)}`);
  const members = parsed.data.features.map((item, i) => {
    const assets = Object.values(item.assets);
    const asset =
      assets.find((a) => a.roles?.includes('data') && DATA_FILE.test(a.href)) ??
      assets.find((a) => DATA_FILE.test(a.href));
    const name = item.id ?? `features.${i}`;
    if (!asset) throw new InvalidCollectionError(`${where}: item ${name} has no GeoTIFF or LAS/LAZ asset`);
    const prefix = `s3://${bucket}/`;
    if (!asset.href.startsWith(prefix))
      throw new InvalidCollectionError(
        `${where}: item ${name}'s asset ${asset.href} is not in this deployment's bucket ${bucket}`,
      );
    return { key: decodeURIComponent(asset.href.slice(prefix.length)) };
  });
  return { members };
}
