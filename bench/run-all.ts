/**
 * `npm run bench`: every benchmark in one run, figures printed with the machine they ran on,
 * saved as JSON in .bench/results.json, and written into the README's benchmark table.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../local/project-root.js';
import { benchCancelCooperative, benchCancelStubborn } from './cancel.js';
import { benchOverhead, benchSource } from './overhead.js';
import { benchRerunCompleted, benchSigtermResume } from './resume.js';
import { machine } from './support/machine.js';
import { pricePer1000 } from './support/price.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const root = projectRoot();
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
const started = performance.now();

log('orchestration overhead (geohub vs xargs -P 2 gdalwarp)…');
const overhead = await benchOverhead(benchSource(root), 2);
log('split and enqueue of 1,000,000 sub-tiles…');
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench/split-million.ts')], {
  stdio: 'inherit',
});
const million = JSON.parse(readFileSync(join(root, '.bench/split-million.json'), 'utf8'));
log('finalize of 1,000,000 sub-tiles (markers seeded through the ledger)…');
execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench/finalize-million.ts')], {
  stdio: 'inherit',
});
const finalized = JSON.parse(readFileSync(join(root, '.bench/finalize-million.json'), 'utf8'));
log('resume after SIGTERM…');
const sigterm = await benchSigtermResume(root);
log('re-run of a completed 10,000-sub-tile run…');
const rerun = await benchRerunCompleted(10_000);
log('cancel latency…');
const cooperative = await benchCancelCooperative();
const stubborn = await benchCancelStubborn(10_000);

const ranged = overhead.runs.find((r) => r.sourceAccess === 'ranged')!;
const cost = pricePer1000(
  overhead.counted.requests,
  overhead.counted.s3HttpRequests,
  // On AWS the progress loop waits 10 s (locally 0.25 s): Wait → CheckProgress → Decide per turn.
  12 + Math.ceil(ranged.runSeconds / 10) * 3,
  overhead.tiles,
);
const results = {
  at: new Date().toISOString(),
  machine: machine(),
  totalSeconds: Math.round((performance.now() - started) / 1000),
  overhead,
  splitMillion: million,
  finalizeMillion: finalized,
  resume: { sigterm, rerun },
  cancel: { cooperative, stubborn },
  cost,
};
mkdirSync(join(root, '.bench'), { recursive: true });
writeFileSync(join(root, '.bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);

const cached = overhead.runs.find((r) => r.sourceAccess === 'cached')!;
const m = results.machine;
const rows = [
  `Measured ${results.at.slice(0, 10)} on ${m.cpus} × ${m.cpu}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.gdal}; \`npm run bench\` took ${results.totalSeconds} s.`,
  '',
  '| figure | result | target |',
  '| --- | --- | --- |',
  `| overhead, ${overhead.tiles} sub-tiles, 2 workers, source read by ranged GETs (/vsis3/) | ${ranged.runSeconds} s vs raw ${overhead.rawSeconds} s: **×${ranged.ratioExcludingStartup}** without start-up, ×${ranged.ratioIncludingStartup} with it | ≤ 1.10 without start-up |`,
  `| CPU the local AWS stand-ins used during that run (a remote service on AWS) | ${ranged.cpu.stack} CPU-s; worker processes themselves ${ranged.cpu.workers} CPU-s, of ${(ranged.runSeconds * m.cpus).toFixed(0)} CPU-s available | |`,
  `| overhead, same, one cached copy of the source per worker | ${cached.runSeconds} s: **×${cached.ratioExcludingStartup}** without start-up, ×${cached.ratioIncludingStartup} with it | ≤ 1.10 |`,
  `| split + enqueue of 1,000,000 sub-tiles | split ${(million.split.ms / 1000).toFixed(1)} s, enqueue ${(million.enqueue.ms / 1000).toFixed(1)} s (longest call ${(million.enqueue.longestCallMs / 1000).toFixed(1)} s); peak RSS ${million.split.peakRssMiB} MiB (split), ${million.enqueue.peakRssMiB} MiB (enqueue) | within Lambda limits |`,
  `| finalize of ${finalized.subTiles.toLocaleString('en')} sub-tiles (Lambda: ${finalized.finalize.lambda.memoryMiB} MB, ${finalized.finalize.lambda.timeoutSeconds} s) | ${(finalized.finalize.ms / 1000).toFixed(0)} s (markers read from DynamoDB Local ${(finalized.finalize.phases['markers read'].ms / 1000).toFixed(0)} s), peak RSS ${finalized.finalize.peakRssMiB} MiB; gdalinfo opens the ${finalized.mosaic.blocks}-block mosaic in ${finalized.mosaic.gdalinfoMs} ms | within the finalize Lambda's limits; seconds |`,
  `| sub-tiles redone after a SIGTERM mid-run (${sigterm.tiles} sub-tiles) | ${sigterm.redone} (in flight: ${sigterm.inFlightAtSigterm}) | ≤ in flight |`,
  `| re-run of a completed ${rerun.tiles}-sub-tile run | ${rerun.rerunSeconds.toFixed(1)} s, ${rerun.toolInvocations} tool invocations | seconds, no tool work |`,
  `| cancel → group dead / .part gone / claim released, cooperative gdalwarp (worker, via execution stop) | ${cooperative.groupDeadMs} / ${cooperative.partGoneMs} / ${cooperative.claimReleasedMs} ms | within the run-status poll + grace |`,
  `| same, a child that ignores SIGTERM (kill grace ${stubborn.graceMs / 1000} s) | ${stubborn.groupDeadMs} / ${stubborn.partGoneMs} / ${stubborn.claimReleasedMs} ms | ≈ the kill grace |`,
  `| AWS requests per sub-tile | SQS ${cost.perSubTile.sqsRequests.toFixed(2)}, DynamoDB ${cost.perSubTile.dynamoWriteUnits.toFixed(1)} WRU + ${cost.perSubTile.dynamoReadUnits.toFixed(1)} RRU, S3 ${cost.perSubTile.s3Puts.toFixed(2)} PUT + ${cost.perSubTile.s3Gets.toFixed(1)} GET, ${cost.perSubTile.transitions.toFixed(2)} transitions | |`,
  `| request cost per 1,000 sub-tiles | $${cost.usdPer1000.total.toFixed(4)} (SQS $${cost.usdPer1000.sqs.toFixed(4)}, DynamoDB $${cost.usdPer1000.dynamodb.toFixed(4)}, S3 $${cost.usdPer1000.s3.toFixed(4)}, Step Functions $${cost.usdPer1000.stepFunctions.toFixed(4)}) | |`,
];
const table = rows.join('\n');
process.stdout.write(`${table}\n`);
const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const start = '<!-- bench:start -->';
const end = '<!-- bench:end -->';
if (readme.includes(start) && readme.includes(end)) {
  writeFileSync(
    readmePath,
    `${readme.slice(0, readme.indexOf(start) + start.length)}\n${table}\n${readme.slice(readme.indexOf(end))}`,
  );
  log('README table updated');
}
