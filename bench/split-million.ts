/**
 * Benchmark (not a test): split + enqueue of 1,000,000 sub-tiles on a local stack it starts and
 * stops itself. Records wall time, the longest single enqueue call (the Lambda-limit figure) and
 * peak memory, prints them and saves JSON to .bench/.
 *
 *   npx tsx bench/split-million.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { execa } from 'execa';
import { enqueueChunk } from '../lib/enqueue/enqueue-chunk.js';
import type { EnqueueCursor } from '../lib/enqueue/enqueue-request.js';
import { split } from '../lib/split/split.js';
import { tileBounds } from '../lib/tiling/tile-bounds.js';
import { memoryProbe, mib, withBenchStack } from './support/local-bench.js';

const ZOOM = 18;
// Tiles a side: 1,000 × 1,000 = 1,000,000 sub-tiles (smaller for the CI check of the bench itself).
const SIDE = Number(process.env.GEOHUB_BENCH_SPLIT_SIDE ?? 1000);
const ORIGIN = { x: 130_000, y: 90_000 }; // a z18 tile in the northern mid-latitudes

async function main() {
  await withBenchStack(async ({ stack, clients, store, ledger, queue, scratch }) => {
    // A synthetic source: a tiny GeoTIFF whose footprint is exactly 1000 × 1000 tiles at z18.
    const nw = tileBounds(ZOOM, ORIGIN.x, ORIGIN.y);
    const se = tileBounds(ZOOM, ORIGIN.x + SIDE - 1, ORIGIN.y + SIDE - 1);
    const source = join(scratch, 'synthetic.tif');
    await execa('gdal_create', [
      '-q',
      '-of',
      'GTiff',
      '-outsize',
      '100',
      '100',
      '-bands',
      '1',
      '-ot',
      'Byte',
      '-a_srs',
      'EPSG:3857',
      '-a_ullr',
      String(nw.minX),
      String(nw.maxY),
      String(se.maxX),
      String(se.minY),
      source,
    ]);
    const key = 'incoming/bench/synthetic.tif';
    const put = await store.putFile(key, source);

    // What the process holds before any work (runtime, SDK clients): the peaks below include it.
    const before = process.memoryUsage();
    const baseline = { rssMiB: mib(before.rss), heapUsedMiB: mib(before.heapUsed) };
    const splitMemory = memoryProbe();
    const splitStart = performance.now();
    const result = await split(
      {
        source: { bucket: stack.config.bucket, key, version: put.versionId ?? put.etag },
        params: { zoom: ZOOM },
      },
      { store, ledger },
    );
    const splitMs = performance.now() - splitStart;
    const splitMem = splitMemory.stop();
    console.error(
      `split: ${result.total} sub-tiles in ${Math.round(splitMs)} ms, ${result.manifest.parts.length} parts`,
    );

    const enqueueMemory = memoryProbe();
    const enqueueStart = performance.now();
    let cursor: EnqueueCursor | null = null;
    let calls = 0;
    let messages = 0;
    let longestCallMs = 0;
    for (let done = false; !done; calls += 1) {
      const callStart = performance.now();
      const r = await enqueueChunk(result.manifest, cursor, { store, queue });
      longestCallMs = Math.max(longestCallMs, performance.now() - callStart);
      ({ cursor, done } = r);
      messages += r.messages;
      if (calls % 5 === 0) console.error(`enqueue: ${r.sent} / ${r.total}`);
    }
    const enqueueMs = performance.now() - enqueueStart;
    const enqueueMem = enqueueMemory.stop();

    // Every message the queue holds, delayed ones included: the SQS stand-in marks each new message
    // delayed until a zero-delay timer fires, which lags behind a flood of sends (at 1,000,000
    // sub-tiles the last ~40 were still "delayed" when counted), and on AWS the counts are
    // approximate too. Counted until two reads agree.
    const countQueued = async () => {
      const a = (
        await clients.sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: stack.config.queueUrl,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesDelayed'],
          }),
        )
      ).Attributes;
      return (
        Number(a?.ApproximateNumberOfMessages ?? -1) + Number(a?.ApproximateNumberOfMessagesDelayed ?? 0)
      );
    };
    let queued = await countQueued();
    for (let i = 0; i < 20; i += 1) {
      await new Promise((r) => setTimeout(r, 250));
      const again = await countQueued();
      if (again === queued && queued === messages) break;
      queued = again;
    }

    const figures = {
      bench: 'split-million',
      at: new Date().toISOString(),
      node: process.version,
      subTiles: result.total,
      zoom: result.zoom,
      manifestParts: result.manifest.parts.length,
      manifestBytes: result.manifest.parts.reduce((n, p) => n + p.bytes, 0),
      headerBytesRead: result.headerBytesRead,
      baseline,
      split: { ms: Math.round(splitMs), ...splitMem },
      enqueue: {
        ms: Math.round(enqueueMs),
        calls,
        messages,
        longestCallMs: Math.round(longestCallMs),
        queuedMessages: queued,
        ...enqueueMem,
      },
    };
    if (result.total !== SIDE * SIDE || queued !== messages) {
      throw new Error(
        `expected ${SIDE * SIDE} sub-tiles and ${messages} queued messages: ${JSON.stringify(figures)}`,
      );
    }
    const out = join(process.cwd(), '.bench');
    mkdirSync(out, { recursive: true });
    const json = `${JSON.stringify(figures, null, 2)}\n`;
    writeFileSync(join(out, 'split-million.json'), json);
    writeFileSync(join(out, `split-million-${figures.at.replace(/[:.]/g, '-')}.json`), json);
    process.stdout.write(json);
  });
}

await main();
