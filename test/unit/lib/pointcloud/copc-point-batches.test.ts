import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copcNodesIn, copcPointBatches } from '../../../../lib/pointcloud/copc-point-batches.js';
import type { PointBatch } from '../../../../lib/pointcloud/decode-point-records.js';
import { type OpenedPointCloud, openPointCloud } from '../../../../lib/pointcloud/open-point-cloud.js';
import type { Bbox } from '../../../../lib/tiling/bbox.js';

const COPC = new URL('../../../fixtures/pointcloud/simple.copc.laz', import.meta.url).pathname;
let cloud: OpenedPointCloud;
beforeAll(async () => {
  cloud = await openPointCloud(COPC);
});
afterAll(() => cloud.close());

async function collect(box: Bbox): Promise<PointBatch[]> {
  const batches: PointBatch[] = [];
  for await (const batch of copcPointBatches(cloud, box)) batches.push(batch);
  return batches;
}

const inside = (batches: PointBatch[], [minX, minY, maxX, maxY]: Bbox) => {
  let n = 0;
  for (const b of batches) {
    for (let i = 0; i < b.count; i += 1)
      if (b.x[i]! >= minX && b.x[i]! <= maxX && b.y[i]! >= minY && b.y[i]! <= maxY) n += 1;
  }
  return n;
};

describe('COPC reading by octree nodes', () => {
  it('reads every point of the file when the box holds it all, coarsest nodes first', async () => {
    expect(cloud.header.format).toBe('copc');
    const nodes = await copcNodesIn(cloud, cloud.header.bbox);
    expect(nodes.reduce((n, node) => n + node.pointCount, 0)).toBe(1065);
    expect(nodes[0]!.key).toBe('0-0-0-0');
    expect(nodes.map((n) => n.depth)).toEqual([...nodes.map((n) => n.depth)].sort((a, b) => a - b));

    const batches = await collect(cloud.header.bbox);
    const classes = new Map<number, number>();
    for (const b of batches) for (const c of b.classification) classes.set(c, (classes.get(c) ?? 0) + 1);
    expect(Object.fromEntries(classes)).toEqual({ 1: 789, 2: 276 });
    // Decoded coordinates lie in the header's bounds (scale and offset applied right).
    const [minX, minY, maxX, maxY] = cloud.header.bbox;
    expect(inside(batches, [minX - 0.01, minY - 0.01, maxX + 0.01, maxY + 0.01])).toBe(1065);
  });

  it('reads only the nodes that meet a small box, and still every point inside it', async () => {
    const [minX, minY] = cloud.header.bbox;
    const box: Bbox = [minX, minY, minX + 500, minY + 500];
    const all = await copcNodesIn(cloud, cloud.header.bbox);
    const some = await copcNodesIn(cloud, box);
    expect(some.length).toBeLessThan(all.length);
    expect(some.length).toBeGreaterThan(0);
    expect(inside(await collect(box), box)).toBe(inside(await collect(cloud.header.bbox), box));
  });

  it('reads nothing for a box beside the cloud', async () => {
    const [, , maxX, maxY] = cloud.header.bbox;
    // The octree cube extends past the data: go beyond the cube too.
    const far: Bbox = [maxX + 1e5, maxY + 1e5, maxX + 2e5, maxY + 2e5];
    expect(await copcNodesIn(cloud, far)).toEqual([]);
    expect(await collect(far)).toEqual([]);
  });
});
