import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdapters } from '../../../lib/adapters/create-adapters.js';
import { runPrefix, tileOutputKey } from '../../../lib/model/ids.js';
import { mirrorOutput, mirrorPath } from '../../../lib/output/output-mirror.js';
import { copyRunOutputs } from '../../../local/cli/copy-outputs.js';
import { stackClients } from '../../support/stack-clients.js';
import { tempDir } from '../../support/temp-dir.js';

const { config, clients } = stackClients();
afterAll(() => clients.destroy());

describe('geohub run copies its tiles from the workers’ mirror, and from the bucket what the mirror does not hold', () => {
  it('a mirrored tile costs no GET; a missing or altered one is downloaded, and --out holds the objects', async () => {
    const counted = new Map<string, number>();
    const counting = createAdapters(config, {
      onRequest: (_s, command) => counted.set(command, (counted.get(command) ?? 0) + 1),
    });
    try {
      const runId = `r-${randomUUID().replaceAll('-', '').slice(0, 20)}`;
      const scratch = tempDir('geohub-mirror-scratch-');
      const mirror = tempDir('geohub-mirror-test-');
      const tiles = Array.from({ length: 12 }, (_, i) => ({ z: 14, x: 100 + (i % 3), y: 200 + i }));
      const bytes = tiles.map(() => randomBytes(3_000));
      // As a worker does: the object first, then its mirror entry.
      for (const [i, tile] of tiles.entries()) {
        const file = join(scratch, `${i}.tif`);
        writeFileSync(file, bytes[i]!);
        const key = tileOutputKey(runId, tile);
        await counting.store.putFile(key, file);
        await mirrorOutput(mirror, key, file);
      }
      await counting.store.putText(`${runPrefix(runId)}summary.json`, '{"tiles":12}\n');
      // One entry gone (a link that failed), one altered after the upload (same size): both must
      // come from the bucket.
      unlinkSync(mirrorPath(mirror, tileOutputKey(runId, tiles[4]!)));
      writeFileSync(mirrorPath(mirror, tileOutputKey(runId, tiles[7]!)), randomBytes(3_000));

      counted.clear();
      const out = tempDir('geohub-mirror-out-');
      expect(await copyRunOutputs(counting.store, runId, out, { mirror })).toBe(13);
      for (const [i, tile] of tiles.entries())
        expect(readFileSync(join(out, `${tile.z}/${tile.x}/${tile.y}.tif`)).equals(bytes[i]!)).toBe(true);
      // Two tiles and the summary downloaded; ten tiles read from the mirror.
      expect(counted.get('GetObjectCommand')).toBe(3);

      // Without a mirror, every object is a GET.
      counted.clear();
      expect(await copyRunOutputs(counting.store, runId, tempDir('geohub-mirror-out-'))).toBe(13);
      expect(counted.get('GetObjectCommand')).toBe(13);
    } finally {
      counting.destroy();
    }
  });
});
