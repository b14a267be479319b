import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { cancelRun } from '../../lib/coordination/cancel-run.js';
import { countClaims, listTiles } from '../../lib/ledger/tile-records.js';
import { runIdSchema } from '../../lib/model/ids.js';
import { tileParamsSchema } from '../../lib/split/job-params.js';
import { verifyRun } from '../../lib/verify/verify-run.js';
import type { LocalHub } from '../hub/local-hub.js';
import type { RequestGate } from './auth.js';
import { findDebris } from './debris.js';
import { createRunTilesReader } from './page/run-tiles.js';
import { runTilesGeoJson } from './page/tile-geojson.js';
import { runTileStates } from './page/tile-state-codes.js';

export interface ApiServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const uploadSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[^/\0]+$/, 'a file name, not a path'),
    zoom: z
      .string()
      .regex(/^[0-9]{1,2}$/, 'a whole number')
      .transform(Number)
      .pipe(tileParamsSchema.shape.zoom.unwrap())
      .optional(),
  })
  .strict();
const redriveSchema = z.object({ runId: runIdSchema.optional() }).strict();
const MAX_BODY = 64 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

async function body(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, 'request body too large');
    chunks.push(chunk as Buffer);
  }
  if (chunks.length === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new HttpError(
      400,
      r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
    );
  return r.data;
}

/** A run id from a route, checked before any lookup (length included). */
function runIdOf(m: RegExpMatchArray): string {
  const r = runIdSchema.safeParse(m[1]);
  if (!r.success) throw new HttpError(400, 'not a run id: a run id is 8 to 64 of [0-9a-z-]');
  return r.data;
}

/**
 * The request body is the file itself, streamed by `geohub submit` (running as the user who
 * can read it): the server never opens a path it is sent. It lands in a private temporary
 * directory, goes to the bucket by multipart upload, and is removed.
 */
async function receiveUpload(hub: LocalHub, req: IncomingMessage, url: URL) {
  const { name, zoom } = parse(uploadSchema, Object.fromEntries(url.searchParams));
  const dir = await mkdtemp(join(tmpdir(), 'geohub-up-upload-'));
  try {
    const file = join(dir, 'source');
    await pipeline(req, createWriteStream(file, { mode: 0o600 }));
    return await hub.upload(file, { name, ...(zoom === undefined ? {} : { job: { zoom } }) });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The JSON API of `geohub up`, on loopback only: what the CLI's submit/status/cancel/
 * redrive/verify commands and the run-control page talk to. Every request passes `gate`
 * (the per-start secret, local/server/auth.ts) before any route or page asset.
 */
export async function startApiServer(
  hub: LocalHub,
  port: number,
  page?: PageHandler,
  gate: (actualPort: number) => RequestGate = () => () => true,
): Promise<ApiServer> {
  const runView = async (runId: string) => {
    const run = await hub.ledger.getRun(runId);
    if (!run) throw new HttpError(404, `no such run: ${runId}`);
    const execution = run.executionArn ? hub.executions.get(run.executionArn) : undefined;
    return {
      ...run,
      execution: execution
        ? {
            status: execution.status,
            state: execution.states.at(-1),
            // The path grows by three states per progress check: keep the recent part.
            transitions: execution.states.length,
            states: execution.states.slice(-12),
            error: execution.error,
            cause: execution.cause,
          }
        : undefined,
    };
  };
  // The run-control page's map: manifest sub-tiles merged with ledger states, bounded.
  const runTiles = createRunTilesReader(hub.store, hub.ledger);
  const mapOf = async (runId: string) => {
    if (!(await hub.ledger.getRun(runId))) throw new HttpError(404, `no such run: ${runId}`);
    return runTiles.read(runId);
  };

  const routes: [
    string,
    RegExp,
    (m: RegExpMatchArray, req: IncomingMessage, url: URL) => Promise<unknown>,
  ][] = [
    [
      'GET',
      /^\/api\/runs$/,
      async () => Promise.all((await hub.ledger.listRuns(100)).map((r) => runView(r.runId))),
    ],
    ['GET', /^\/api\/runs\/([^/]+)$/, async (m) => runView(runIdOf(m))],
    [
      'GET',
      /^\/api\/runs\/([^/]+)\/tiles$/,
      async (m) => {
        const runId = runIdOf(m);
        if (!(await hub.ledger.getRun(runId))) throw new HttpError(404, `no such run: ${runId}`);
        const tiles = [];
        for await (const t of listTiles(hub.ledger, runId)) tiles.push(t);
        return tiles;
      },
    ],
    ['GET', /^\/api\/runs\/([^/]+)\/tiles\.geojson$/, async (m) => runTilesGeoJson(await mapOf(runIdOf(m)))],
    ['GET', /^\/api\/runs\/([^/]+)\/tile-states$/, async (m) => runTileStates(await mapOf(runIdOf(m)))],
    ['POST', /^\/api\/uploads$/, async (_m, req, url) => receiveUpload(hub, req, url)],
    [
      'POST',
      /^\/api\/runs\/([^/]+)\/cancel$/,
      async (m) => {
        const run = await hub.ledger.getRun(runIdOf(m));
        if (!run) throw new HttpError(404, `no such run: ${m[1]}`);
        const execution = run.executionArn ? hub.executions.get(run.executionArn) : undefined;
        // As the console's Stop button; without a running execution, cancel the run directly.
        if (execution?.status === 'RUNNING') await hub.executions.stop(execution.executionArn);
        else await cancelRun(hub.ledger, run.runId, 'cancelled by an operator');
        return runView(run.runId);
      },
    ],
    ['POST', /^\/api\/redrive$/, async (_m, req) => hub.redrive(parse(redriveSchema, await body(req)).runId)],
    [
      'GET',
      /^\/api\/runs\/([^/]+)\/verify$/,
      async (m) => {
        const runId = runIdOf(m);
        if (!(await hub.ledger.getRun(runId))) throw new HttpError(404, `no such run: ${runId}`);
        const report = await verifyRun(hub.ledger, hub.store, runId);
        const claims = await countClaims(hub.ledger, runId);
        // This hub's workers' scratch only: another stack's leftovers are not this run's.
        const debris = findDebris(hub.pool.pids(), hub.pool.scratchDirs(), process.pid);
        return {
          ...report,
          claimsHeld: claims,
          ...debris,
          ok: report.gaps.length === 0 && debris.parts.length === 0 && debris.orphans.length === 0,
        };
      },
    ],
    ['GET', /^\/api\/workers$/, async () => hub.pool.activity()],
    [
      'GET',
      /^\/api\/queues$/,
      async () => ({ work: await hub.queue.depth(), deadLetters: await hub.deadLetters.depth() }),
    ],
  ];

  let origin = '';
  let allowed: RequestGate = () => false;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // Loopback is not a boundary a browser respects: refuse requests addressed to another
    // host name (DNS rebinding) and state changes a web page could send as a plain form post.
    const host = req.headers.host ?? '';
    const sameHost = host === origin || host === origin.replace('127.0.0.1', 'localhost');
    if (!sameHost) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'forbidden' }));
      return;
    }
    // One gate for everything this server answers, routes added later included.
    if (!allowed(req, res)) return;
    const type = req.headers['content-type'] ?? '';
    const upload = url.pathname === '/api/uploads' && type === 'application/octet-stream';
    const jsonPost = req.method !== 'POST' || type.startsWith('application/json') || upload;
    if (!jsonPost) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'forbidden' }));
      return;
    }
    const route = routes.find(([method, pattern]) => method === req.method && pattern.test(url.pathname));
    if (!route) {
      if (page?.(req, res)) return;
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      return;
    }
    route[2](url.pathname.match(route[1])!, req, url)
      .then((value) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      })
      .catch((error: unknown) => {
        const status = error instanceof HttpError ? error.status : 500;
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: (error as Error).message }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  origin = `127.0.0.1:${address.port}`;
  allowed = gate(address.port);
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
