/**
 * `node dist/local/stack/prepare-class-archive-main.js` (scripts/setup.sh): makes DynamoDB Local's
 * class-data archive if this JVM has none yet. A failure is reported and ends nothing: without
 * the archive, local stacks start as before, only slower.
 */
import { performance } from 'node:perf_hooks';
import { dynamoHome } from './dynamodb-class-archive.js';
import { prepareClassArchive } from './prepare-class-archive.js';

const started = performance.now();
try {
  const { made, archive } = await prepareClassArchive(dynamoHome());
  if (made) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `setup: DynamoDB Local's class-data archive made in ${seconds} s (${archive.archive})\n`,
    );
  }
} catch (error) {
  process.stderr.write(
    `setup: no class-data archive for DynamoDB Local (${error instanceof Error ? error.message : String(error)}); local stacks start without it\n`,
  );
}
