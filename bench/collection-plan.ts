/**
 * The split of a 10,000-member collection (issue 38): a survey of 100 × 100 one-kilometre sheets
 * (small GeoTIFFs written by geotiff.js, each with its own tiepoint, EPSG:32631), uploaded to an
 * in-memory bucket whose every request waits `latencyMs` (S3's first-byte latency), then split
 * by the production code: every header read (32 at once), the union planned, the member list
 * and the manifest written. Prints the time, the peak RSS, and the sizes of what was written.
 *
 *   node --import tsx bench/collection-plan.ts [members=10000] [latencyMs=20] [zoom=16]
 */
import { writeArrayBuffer } from 'geotiff';
import { membersKey } from '../lib/collection/run-members.js';
import { runIdFor } from '../lib/model/ids.js';
import { split } from '../lib/split/split.js';
import type { ObjectStore } from '../lib/store/object-store.js';
import { createMemoryLedger } from '../test/support/memory-ledger.js';
import { createMemoryStore } from '../test/support/memory-store.js';
import type { Spread } from './support/stats.js';

/** What one run prints, and the bench's table reads (`seconds` a spread over the runs there). */
export interface CollectionPlanFigures {
  readonly members: number;
  readonly latencyMs: number;
  readonly zoom: number;
  readonly subTiles: number;
  readonly seconds: Spread;
  readonly peakRssMiB: number;
  readonly rssGrowthMiB: number;
  readonly collectionManifestBytes: number;
  readonly memberListBytes: number;
  readonly manifestBytes: number;
  readonly manifestParts: number;
}

const [members = 10_000, latencyMs = 20, zoom = 16] = process.argv.slice(2).map(Number);
const SIDE = 64;
const SHEET_M = 1_000;

function sheet(col: number, row: number): Uint8Array {
  const values = new Uint8Array(SIDE * SIDE).fill(1 + ((col + row) % 250));
  const buffer = writeArrayBuffer(values, {
    width: SIDE,
    height: SIDE,
    ModelPixelScale: [SHEET_M / SIDE, SHEET_M / SIDE, 0],
    ModelTiepoint: [0, 0, 0, 500_000 + col * SHEET_M, 5_800_000 - row * SHEET_M, 0],
    GTModelTypeGeoKey: 1,
    GTRasterTypeGeoKey: 1,
    ProjectedCSTypeGeoKey: 32631,
  });
  return new Uint8Array(buffer);
}

/** Every request of the store waits as S3's would: the split's reads are latency-bound. */
function withLatency(store: ObjectStore, ms: number): ObjectStore {
  const wait = () => new Promise((r) => setTimeout(r, ms));
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || name === 'bucket') return value;
      return async (...args: unknown[]) => {
        await wait();
        return value.apply(target, args);
      };
    },
  });
}

const memory = createMemoryStore();
const side = Math.ceil(Math.sqrt(members));
const listed: { key: string; etag: string; versionId: string }[] = [];
for (let i = 0; i < members; i++) {
  const key = `collections/survey/sheet-${String(i).padStart(5, '0')}.tif`;
  memory.putBytes(key, sheet(i % side, Math.floor(i / side)));
  const head = (await memory.head(key))!;
  listed.push({ key, etag: head.etag.replace(/"/g, ''), versionId: `v${i}` });
}
const manifestKey = 'incoming/survey.collection.json';
const text = JSON.stringify({
  type: 'geohub-collection',
  members: listed.map(({ key, etag }) => ({ key, etag })),
});
memory.putBytes(manifestKey, new Uint8Array(Buffer.from(text)));
const mhead = (await memory.head(manifestKey))!;
const source = {
  bucket: memory.bucket,
  key: manifestKey,
  version: mhead.etag.replace(/"/g, ''),
  etag: mhead.etag.replace(/"/g, ''),
};

const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const t0 = performance.now();
const result = await split(
  { source, params: { zoom } },
  { store: withLatency(memory, latencyMs), ledger: createMemoryLedger(), pointcloudEngine: 'local' },
);
const seconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);

const runId = runIdFor(source);
const partBytes = result.manifest.parts.reduce((n, p) => n + p.bytes, 0);
const membersBytes = Buffer.byteLength(await memory.getText(membersKey(runId)));
console.log(
  JSON.stringify({
    members,
    latencyMs,
    zoom: result.zoom,
    subTiles: result.total,
    seconds: Number(seconds.toFixed(2)),
    peakRssMiB: Math.round(peak / 2 ** 20),
    rssGrowthMiB: Math.round((peak - baseline) / 2 ** 20),
    collectionManifestBytes: mhead.bytes,
    memberListBytes: membersBytes,
    manifestBytes: partBytes,
    manifestParts: result.manifest.parts.length,
    headerBytesRead: result.headerBytesRead,
  }),
);
