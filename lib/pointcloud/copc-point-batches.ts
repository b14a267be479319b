import { Hierarchy } from 'copc/lib/copc/hierarchy.js';
import { Info } from 'copc/lib/copc/info.js';
import { Vlr } from 'copc/lib/las/vlr.js';
import { Bounds } from 'copc/lib/utils/bounds.js';
import { Key } from 'copc/lib/utils/key.js';
import { CorruptHeaderError } from '../source/errors.js';
import type { Bbox } from '../tiling/bbox.js';
import { decodePointRecords, type PointBatch } from './decode-point-records.js';
import { loadLazPerf } from './load-laz-perf.js';
import type { OpenedPointCloud } from './open-point-cloud.js';

/** One octree node to decode: where its compressed points are, and how many. */
export interface CopcNode {
  readonly key: string;
  readonly depth: number;
  readonly pointCount: number;
  readonly pointDataOffset: number;
  readonly pointDataLength: number;
}

const intersects = (cube: Bounds, bbox: Bbox) =>
  cube[0] <= bbox[2] && cube[3] >= bbox[0] && cube[1] <= bbox[3] && cube[4] >= bbox[1];

/** copc's parsers throw plain Errors on malformed bytes: those are corrupt files, not bugs. */
function parseOrCorrupt<T>(what: string, parse: (bytes: Uint8Array) => T, bytes: Uint8Array): T {
  try {
    return parse(bytes);
  } catch (error) {
    throw new CorruptHeaderError(`${what} is corrupt: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    });
  }
}

/**
 * The octree nodes of a COPC file whose cubes meet `bbox` (source CRS, XY only), coarsest first.
 * Hierarchy pages below a cube that misses the box are never read.
 */
export async function copcNodesIn(cloud: OpenedPointCloud, bbox: Bbox): Promise<CopcNode[]> {
  const infoVlr = Vlr.find([...cloud.vlrs], 'copc', 1);
  if (!infoVlr) throw new CorruptHeaderError(`${cloud.path} has no COPC info VLR`);
  const info = parseOrCorrupt(
    `${cloud.path}: COPC info VLR`,
    Info.parse,
    await Vlr.fetch(cloud.read, infoVlr),
  );
  const nodes: CopcNode[] = [];
  const pages: Hierarchy.Page[] = [info.rootHierarchyPage];
  for (let page = pages.pop(); page; page = pages.pop()) {
    const { pageOffset, pageLength } = page;
    const subtree = parseOrCorrupt(
      `${cloud.path}: COPC hierarchy page at byte ${pageOffset}`,
      Hierarchy.parse,
      await cloud.read(pageOffset, pageOffset + pageLength),
    );
    for (const [key, node] of Object.entries(subtree.nodes)) {
      if (!node || node.pointCount <= 0) continue;
      const parsed = Key.parse(key);
      if (!intersects(Bounds.stepTo(info.cube, parsed), bbox)) continue;
      nodes.push({ key, depth: parsed[0], ...node });
    }
    for (const [key, child] of Object.entries(subtree.pages)) {
      if (child && intersects(Bounds.stepTo(info.cube, Key.parse(key)), bbox)) pages.push(child);
    }
  }
  // Coarse nodes hold a thin sample of the whole cube: a caller that stops early (the ground
  // probe) sees most of the area soonest this way.
  return nodes.sort((a, b) => a.depth - b.depth || a.pointDataOffset - b.pointDataOffset);
}

/**
 * The points of the COPC nodes that meet `bbox`, one batch per node, decoded by laz-perf's chunk
 * decoder. Only those nodes' bytes are read: a tile of a large file costs its own share.
 */
export async function* copcPointBatches(cloud: OpenedPointCloud, bbox: Bbox): AsyncGenerator<PointBatch> {
  const nodes = await copcNodesIn(cloud, bbox);
  if (nodes.length === 0) return;
  const lazPerf = await loadLazPerf();
  const { pointDataRecordFormat: format, pointDataRecordLength: length } = cloud.las;
  const pointPointer = lazPerf._malloc(length);
  try {
    for (const node of nodes) {
      const compressed = await cloud.read(node.pointDataOffset, node.pointDataOffset + node.pointDataLength);
      const records = new Uint8Array(node.pointCount * length);
      const chunkPointer = lazPerf._malloc(compressed.byteLength);
      const decoder = new lazPerf.ChunkDecoder();
      try {
        lazPerf.HEAPU8.set(compressed, chunkPointer);
        decoder.open(format, length, chunkPointer);
        for (let i = 0; i < node.pointCount; i += 1) {
          decoder.getPoint(pointPointer);
          records.set(lazPerf.HEAPU8.subarray(pointPointer, pointPointer + length), i * length);
        }
      } finally {
        decoder.delete();
        lazPerf._free(chunkPointer);
      }
      yield decodePointRecords(records, 0, node.pointCount, cloud.las);
    }
  } finally {
    lazPerf._free(pointPointer);
  }
}
