import { objectLocation } from '../store/object-location.js';
import type { ObjectStore } from '../store/object-store.js';
import { type BlockReaderOptions, createBlockReader } from './block-reader.js';
import { detectFormat, MAGIC_BYTES, previewBytes } from './detect-format.js';
import {
  CorruptHeaderError,
  EmptySourceError,
  SourceError,
  SourceNotFoundError,
  TruncatedSourceError,
  UnrecognisedFormatError,
} from './errors.js';
import { readGeoTiffHeader } from './geotiff-header.js';
import { readLasHeader } from './las-header.js';
import type { SourceHeader } from './source-header.js';

export interface SourceHeaderRead {
  readonly header: SourceHeader;
  /** What reading the header cost: bytes fetched and ranged GETs made. */
  readonly read: { readonly bytes: number; readonly requests: number };
}

/**
 * Reads the header of a source object (GeoTIFF/COG/BigTIFF or LAS/LAZ/COPC), recognised by its
 * magic bytes, through ranged GETs only. Every failure is one of the errors in ./errors.ts, with
 * the object's address and what was wrong in the message.
 */
export async function readSourceHeader(
  store: ObjectStore,
  key: string,
  options: BlockReaderOptions = {},
): Promise<SourceHeaderRead> {
  const where = objectLocation(store, key);
  const head = await store.head(key, { signal: options.signal, pin: options.pin });
  if (!head && options.pin)
    throw new SourceNotFoundError(
      `${where} was overwritten or deleted after its upload (ETag ${options.pin.etag}): upload it again`,
    );
  if (!head) throw new SourceNotFoundError(`${where} does not exist`);
  if (head.bytes === 0) throw new EmptySourceError(`${where} is empty (0 bytes): nothing to split`);
  const reader = createBlockReader(store, key, head.bytes, options);
  try {
    const magic = await reader.read(0, MAGIC_BYTES);
    const format = detectFormat(magic);
    if (!format) {
      throw new UnrecognisedFormatError(
        `${where} is neither a GeoTIFF nor a LAS/LAZ point cloud: it starts with ${previewBytes(magic)}, ` +
          'not a TIFF (II*, MM*) or LAS (LASF) signature',
      );
    }
    const header =
      format === 'las' ? await readLasHeader(reader, where) : await readGeoTiffHeader(reader, format, where);
    return { header, read: { ...reader.stats } };
  } catch (error) {
    if (error instanceof SourceError) throw error;
    // A parser running off the end of a short object meets a RangeError: the file is cut short.
    if (reader.hitEnd && error instanceof RangeError) {
      throw new TruncatedSourceError(
        `${where}: the header runs past the end of the ${head.bytes}-byte object`,
        {
          cause: error,
        },
      );
    }
    if (error instanceof Error && (error.name === 'AbortError' || options.signal?.aborted)) throw error;
    throw new CorruptHeaderError(
      `${where}: the header cannot be read: ${(error as Error)?.message ?? error}`,
      {
        cause: error,
      },
    );
  }
}
