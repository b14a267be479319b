import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PASS } from '../../../../local/faults/fault-decider.js';
import { type FaultProxy, startFaultProxy } from '../../../../local/faults/fault-proxy.js';
import type { FrontDoor } from '../../../../local/faults/front-door.js';

const KEY = 'GHFRONTDOORKEY';
// With IAM each principal has a key of its own: the door knows them all.
const OTHER_PRINCIPAL = 'GHOTHERPRINCIPALKEY';
const signed = (keyId: string) =>
  `AWS4-HMAC-SHA256 Credential=${keyId}/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00`;

let upstream: Server | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await new Promise((r) => (upstream ? upstream.close(r) : r(undefined)));
  upstream?.closeAllConnections();
});

/** A proxy with `door` in front of an upstream that echoes how many body bytes it got. */
async function start(door: Omit<FrontDoor, 'keyIds'>) {
  const seen: string[] = [];
  upstream = createServer((req: IncomingMessage, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on('error', () => seen.push(`${req.method} cut off at ${bytes}`));
    req.on('end', () => {
      seen.push(`${req.method} ${bytes}`);
      res.end(JSON.stringify({ bytes }));
    });
  });
  await new Promise<void>((r) => upstream!.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as { port: number }).port;
  proxy = await startFaultProxy({
    target: `http://127.0.0.1:${port}`,
    decide: () => PASS,
    latencyMs: 0,
    random: Math.random,
    onInjected: () => {},
    door: { ...door, keyIds: [OTHER_PRINCIPAL, KEY] },
  });
  return { seen, endpoint: proxy.endpoint };
}

/**
 * Sends headers stating `length` bytes, then up to `send` bytes of body, and returns the status
 * line the proxy answered (or '' if it closed without one) and how many bytes it took.
 */
function rawRequest(endpoint: string, headers: Record<string, string>, length: number, send: number) {
  const { port } = new URL(endpoint);
  return new Promise<{ status: string; written: number }>((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    let written = 0;
    const head = Object.entries({ host: `127.0.0.1:${port}`, 'content-length': String(length), ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.on('data', (d) => {
      answer += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.once('close', () => resolve({ status: answer.split('\r\n')[0] ?? '', written }));
    socket.write(`POST / HTTP/1.1\r\n${head}\r\n`);
    const pump = () => {
      while (written < send && !socket.destroyed) {
        const chunk = Buffer.alloc(Math.min(64 * 1024, send - written));
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

const DOOR = { maxBodyBytes: 1024 * 1024, bodyIdleMs: 1_000, buffered: true, errors: 'json' } as const;

describe('the fault proxy knows the caller before it reads a body (issue 34 #2)', () => {
  it('refuses a request without this start’s key from its headers, before its body reaches anyone', async () => {
    const { seen, endpoint } = await start(DOOR);
    for (const authorization of [undefined, signed('AKIAIOSFODNN7EXAMPLE')]) {
      const r = await rawRequest(endpoint, authorization ? { authorization } : {}, 1.5e9, 8 * 1024 * 1024);
      expect(r.status).toBe('HTTP/1.1 403 Forbidden');
    }
    expect(seen).toEqual([]);
  });

  it("lets every one of this start's keys through (the stack's and each principal's), body and all", async () => {
    const { seen, endpoint } = await start(DOOR);
    for (const key of [KEY, OTHER_PRINCIPAL]) {
      const r = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization: signed(key) },
        body: 'x'.repeat(10),
      });
      expect(await r.json()).toEqual({ bytes: 10 });
    }
    expect(seen).toEqual(['POST 10', 'POST 10']);
  });

  it('answers 413 to a stated length past the cap, unread, and to a chunked body once past it', async () => {
    const { seen, endpoint } = await start(DOOR);
    const stated = await rawRequest(endpoint, { authorization: signed(KEY) }, 2 * 1024 * 1024, 0);
    expect(stated.status).toBe('HTTP/1.1 413 Payload Too Large');
    const chunked = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: signed(KEY) },
      body: new ReadableStream({
        pull(controller) {
          controller.enqueue(new Uint8Array(256 * 1024)); // never ends: only the cap stops it
        },
      }),
      duplex: 'half',
    } as RequestInit).then(
      (r) => r.status,
      () => 'closed',
    );
    expect([413, 'closed']).toContain(chunked);
    expect(seen).toEqual([]);
  });

  it('drops a body that stalls, with 408', async () => {
    const { seen, endpoint } = await start(DOOR);
    const began = Date.now();
    const stalled = await rawRequest(endpoint, { authorization: signed(KEY) }, 1000, 10);
    expect(stalled.status).toBe('HTTP/1.1 408 Request Timeout');
    expect(Date.now() - began).toBeLessThan(30_000);
    expect(seen).toEqual([]);
  });

  it('outlives a caller gone mid-body, buffered or streamed', async () => {
    for (const buffered of [true, false]) {
      const { endpoint } = await start({ ...DOOR, buffered });
      const { port } = new URL(endpoint);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST / HTTP/1.1\r\nhost: x\r\nauthorization: ${signed(KEY)}\r\ncontent-length: 1000\r\n\r\nabc`,
          );
          setTimeout(() => socket.destroy(), 200);
        });
        socket.once('close', () => resolve());
      });
      const r = await fetch(endpoint, { method: 'POST', headers: { authorization: signed(KEY) }, body: 'x' });
      expect(await r.json()).toEqual({ bytes: 1 });
      await proxy?.close();
      proxy = undefined;
    }
  });

  it('passes the caller’s bodies on, buffered or streamed', async () => {
    for (const buffered of [true, false]) {
      const { seen, endpoint } = await start({ ...DOOR, buffered });
      const r = await fetch(endpoint, {
        method: 'POST',
        headers: { authorization: signed(KEY) },
        body: Buffer.alloc(700 * 1024, 1),
      });
      expect(await r.json()).toEqual({ bytes: 700 * 1024 });
      expect(seen).toEqual([`POST ${700 * 1024}`]);
      await proxy?.close();
      proxy = undefined;
    }
  });
});
