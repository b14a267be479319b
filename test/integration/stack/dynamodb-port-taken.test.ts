import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processTable } from '../../../lib/process/process-table.js';
import { startDynamo } from '../../../local/stack/dynamodb-emulator.js';
import { freePort } from '../../../local/stack/free-port.js';

const dataDir = mkdtempSync(join(tmpdir(), 'geohub-dynamo-port-'));
const holders: Server[] = [];
const accepted: Socket[] = [];
afterAll(async () => {
  for (const socket of accepted) socket.destroy(); // our probes' connections, never answered
  await Promise.all(holders.map((s) => new Promise((r) => s.close(r))));
  rmSync(dataDir, { recursive: true, force: true });
});

/** The DynamoDB Local JVMs of this test's stack (its scratch is their temporary directory). */
const ourJavas = () =>
  processTable()
    .filter((p) => p.args.includes('DynamoDBLocal') && p.args.includes(dataDir))
    .map((p) => p.args);

/** What another process does between our pick of a port and Java's bind: it listens there. */
async function heldPort(): Promise<number> {
  const server = createServer((socket) => accepted.push(socket));
  holders.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

describe('DynamoDB Local on a port taken before Java binds it', () => {
  it('moves to another port at once instead of waiting on a Java that binds nothing', async () => {
    const taken = [await heldPort(), await heldPort()];
    const picks = [...taken];
    const began = Date.now();
    const dynamo = await startDynamo(dataDir, 'AKIAPORTTAKEN', {
      pickPort: async () => picks.shift() ?? freePort(),
    });
    try {
      const seconds = (Date.now() - began) / 1000;
      expect(taken).not.toContain(dynamo.port);
      expect(picks).toEqual([]);
      // Before the fix each taken port cost the whole 150 s start-up budget: Jetty's
      // BindException leaves DynamoDB Local's JVM alive, answering nothing.
      expect(seconds).toBeLessThan(60);
      // The Javas of the taken ports are gone; only the one that answers is left.
      expect(ourJavas().map((args) => args.match(/-Dgeohub\.dynamodb\.port=(\d+)/)?.[1])).toEqual([
        String(dynamo.port),
      ]);
    } finally {
      await dynamo.stop();
    }
    expect(ourJavas()).toEqual([]);
  }, 200_000);
});
