import { open } from 'node:fs/promises';
import type { Header } from 'copc/lib/las/header.js';
import { Vlr } from 'copc/lib/las/vlr.js';
import type { BlockReader } from '../source/block-reader.js';
import { detectFormat, MAGIC_BYTES, previewBytes } from '../source/detect-format.js';
import { TruncatedSourceError, UnrecognisedFormatError } from '../source/errors.js';
import { readLasHeader } from '../source/las-header.js';
import { parseLasPublicHeader } from '../source/las-public-header.js';
import type { PointCloudHeader } from '../source/source-header.js';

/** The largest LAS public header (1.4); shorter ones are read from its first bytes. */
const LAS_14_HEADER = 375;

/** A local LAS/LAZ/COPC file, open for ranged reads. */
export interface OpenedPointCloud {
  readonly path: string;
  /** What geohub knows about the file: format (las, laz, copc), CRS, bounds, counts. */
  readonly header: PointCloudHeader;
  /** The raw public header block, as the copc package parses it. */
  readonly las: Header;
  readonly vlrs: readonly Vlr[];
  /** Bytes [begin, end) of the file: the copc package's Getter contract. */
  read(begin: number, end: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * Opens a local point cloud and reads its header and VLRs with the same reader the split uses
 * (lib/source/las-header.ts), so both agree on format, CRS and bounds. The worker names its
 * cached copy `source`, without extension: the format comes from the bytes only.
 */
export async function openPointCloud(path: string): Promise<OpenedPointCloud> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (begin: number, end: number): Promise<Uint8Array> => {
      const stop = Math.min(end, size);
      if (begin < 0 || stop < begin)
        throw new RangeError(`invalid read of bytes [${begin}, ${end}) in ${path}`);
      const bytes = new Uint8Array(stop - begin);
      let done = 0;
      while (done < bytes.byteLength) {
        const { bytesRead } = await handle.read(bytes, done, bytes.byteLength - done, begin + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      if (done < end - begin) {
        throw new TruncatedSourceError(
          `${path}: the file refers to bytes up to ${end} but has ${size}; it is truncated`,
        );
      }
      return bytes;
    };
    let hitEnd = false;
    const blockReader: BlockReader = {
      key: path,
      size,
      stats: { bytes: 0, requests: 0 },
      get hitEnd() {
        return hitEnd;
      },
      async read(offset, length) {
        if (offset >= size) {
          hitEnd = true;
          throw new TruncatedSourceError(`${path}: the file refers to byte ${offset} but has ${size} bytes`);
        }
        if (offset + length > size) hitEnd = true;
        return read(offset, Math.min(offset + length, size));
      },
    };

    const magic = await read(0, Math.min(MAGIC_BYTES, size));
    if (detectFormat(magic) !== 'las') {
      throw new UnrecognisedFormatError(
        `${path} is not a LAS/LAZ point cloud: it starts with ${previewBytes(magic)}, not LASF`,
      );
    }
    const header = await readLasHeader(blockReader, path);
    const padded = new Uint8Array(LAS_14_HEADER);
    padded.set(await read(0, Math.min(LAS_14_HEADER, size)));
    const las: Header = parseLasPublicHeader(padded);
    const vlrs = await Vlr.walk(read, las);
    return { path, header, las, vlrs, read, close: () => handle.close() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
