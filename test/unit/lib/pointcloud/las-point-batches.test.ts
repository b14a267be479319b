import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lasPointBatches } from '../../../../lib/pointcloud/las-point-batches.js';
import { openPointCloud } from '../../../../lib/pointcloud/open-point-cloud.js';
import { gridPoints, syntheticLas } from '../../../support/synthetic-las.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('lasPointBatches', () => {
  it('streams every record of a plain LAS file in batches, values intact across batch boundaries', async () => {
    const points = gridPoints((i, j) => (i + j) % 3);
    const path = join(tempDir('geohub-las-'), 'source');
    writeFileSync(path, syntheticLas(points, { epsg: 32610 }));
    const cloud = await openPointCloud(path);
    try {
      expect(cloud.header.format).toBe('las');
      const seen: { x: number; y: number; z: number; c: number }[] = [];
      const sizes: number[] = [];
      for await (const b of lasPointBatches(cloud, 1000)) {
        sizes.push(b.count);
        for (let i = 0; i < b.count; i += 1)
          seen.push({ x: b.x[i]!, y: b.y[i]!, z: b.z[i]!, c: b.classification[i]! });
      }
      expect(sizes).toHaveLength(Math.ceil(points.length / 1000));
      expect(seen).toHaveLength(points.length);
      for (const k of [0, 999, 1000, points.length - 1]) {
        expect(seen[k]!.x).toBeCloseTo(points[k]!.x, 6);
        expect(seen[k]!.y).toBeCloseTo(points[k]!.y, 6);
        expect(seen[k]!.z).toBeCloseTo(points[k]!.z, 6);
        expect(seen[k]!.c).toBe(points[k]!.classification);
      }
    } finally {
      await cloud.close();
    }
  });
});
