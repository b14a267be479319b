import type { PointCloudHeader } from '../../lib/source/source-header.js';

/** A plausible point-cloud header (1 km² of UTM 31N, a million points), with the fields a test changes. */
export const pointCloudHeader = (over: Partial<PointCloudHeader> = {}): PointCloudHeader => ({
  kind: 'pointcloud',
  format: 'las',
  bytes: 1,
  version: '1.2',
  pointFormat: 3,
  pointCount: 1_000_000,
  scale: [0.01, 0.01, 0.01],
  offset: [0, 0, 0],
  bbox: [500_000, 5_000_000, 501_000, 5_001_000],
  zRange: [0, 10],
  crs: { kind: 'epsg', code: 32631 },
  ...over,
});
