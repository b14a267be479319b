import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { countClaims, listTiles } from '../../lib/ledger/tile-records.js';
import { runIdSchema } from '../../lib/model/ids.js';
import { verifyRun } from '../../lib/verify/verify-run.js';
import type { RequestGate } from './auth.js';
import { HttpError } from './errors.js';
import { body, parse, runIdOf } from './http-request.js';
import { createRunCollectionReader } from './page/run-collection.js';
import { createRunTilesReader } from './page/run-tiles.js';
import { runTilesGeoJson } from './page/tile-geojson.js';
import { runTileStates } from './page/tile-state-codes.js';
import { RESPONDED } from './receive-upload.js';
import type { RunControl } from './run-control.js';
import { runView } from './run-view.js';

export interface ApiServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const redriveSchema = z.object({ runId: runIdSchema.optional() }).strict();

/** The longest a run's view waits for its execution to end (`?wait=`): a request is never held long. */
const MAX_RUN_WAIT_MS = 1_000;

/**
 * The JSON API of `geohub up`, on loopback only: what the CLI's submit/status/cancel/
 * redrive/verify commands and the run-control page talk to. Every request passes `gate`
 * (the per-start secret, local/server/auth.ts) before any route or page asset.
 */
export async function startApiServer(
  control: RunControl,
  port: number,
  page?: PageHandler,
  gate: (actualPort: number) => RequestGate = () => () => true,
): Promise<ApiServer> {
  const collectionOf = createRunCollectionReader(control.store);
  const viewOf = async (runId: string, detail = false) => {
    const run = await control.ledger.getRun(runId);
    if (!run) throw new HttpError(404, `no such run: ${runId}`);
    const [view, collection] = await Promise.all([
      runView(control, run, { chain: detail, history: true }),
      collectionOf(run),
    ]);
    const capacity = control.capacity();
    return {
      ...view,
      ...(collection ? { collection } : {}),
      // Pool-wide: spot and on-demand workers, the interruption rate vs break-even, the cost mix.
      ...(capacity ? { capacity } : {}),
    };
  };
  // The run-control page's map: manifest sub-tiles merged with ledger states, bounded.
  const runTiles = createRunTilesReader(control.store, control.ledger);
  const mapOf = async (runId: string) => {
    if (!(await control.ledger.getRun(runId))) throw new HttpError(404, `no such run: ${runId}`);
    return runTiles.read(runId);
  };

  const routes: [
    string,
    RegExp,
    (m: RegExpMatchArray, req: IncomingMessage, url: URL, res: ServerResponse) => Promise<unknown>,
  ][] = [
    [
      'GET',
      /^\/api\/runs$/,
      async () => Promise.all((await control.ledger.listRuns(100)).map((r) => viewOf(r.runId))),
    ],
    [
      'GET',
      /^\/api\/runs\/([^/]+)$/,
      async (m, _req, url) => {
        const runId = runIdOf(m);
        // `?wait=<ms>`: answers as soon as the run's execution ends, or after the wait (at most
        // MAX_RUN_WAIT_MS): `geohub run` on an up learns of the end at once, not a poll later.
        const wait = Math.min(MAX_RUN_WAIT_MS, Number(url.searchParams.get('wait')) || 0);
        const arn = wait > 0 ? (await control.ledger.getRun(runId))?.executionArn : undefined;
        if (arn) await control.waitForEnd(arn, wait);
        return viewOf(runId, true);
      },
    ],
    [
      'GET',
      /^\/api\/runs\/([^/]+)\/tiles$/,
      async (m) => {
        const runId = runIdOf(m);
        if (!(await control.ledger.getRun(runId))) throw new HttpError(404, `no such run: ${runId}`);
        const tiles = [];
        for await (const t of listTiles(control.ledger, runId)) tiles.push(t);
        return tiles;
      },
    ],
    ['GET', /^\/api\/runs\/([^/]+)\/tiles\.geojson$/, async (m) => runTilesGeoJson(await mapOf(runIdOf(m)))],
    ['GET', /^\/api\/runs\/([^/]+)\/tile-states$/, async (m) => runTileStates(await mapOf(runIdOf(m)))],
    [
      'POST',
      /^\/api\/uploads$/,
      async (_m, req, url, res) => {
        if (!control.receiveUpload)
          throw new HttpError(405, 'this target takes uploads in its bucket: use geohub submit --stage');
        return control.receiveUpload(req, res, url);
      },
    ],
    [
      'POST',
      /^\/api\/runs\/([^/]+)\/cancel$/,
      async (m) => {
        const run = await control.cancel(runIdOf(m));
        if (!run) throw new HttpError(404, `no such run: ${m[1]}`);
        return viewOf(run.runId);
      },
    ],
    [
      'POST',
      /^\/api\/redrive$/,
      async (_m, req) => control.redrive(parse(redriveSchema, await body(req)).runId),
    ],
    [
      'GET',
      /^\/api\/runs\/([^/]+)\/verify$/,
      async (m) => {
        const runId = runIdOf(m);
        if (!(await control.ledger.getRun(runId))) throw new HttpError(404, `no such run: ${runId}`);
        const report = await verifyRun(control.ledger, control.store, runId);
        const claims = await countClaims(control.ledger, runId);
        const debris = control.debris(runId) ?? { parts: [], orphans: [] };
        return {
          ...report,
          claimsHeld: claims,
          ...debris,
          ok: report.gaps.length === 0 && debris.parts.length === 0 && debris.orphans.length === 0,
        };
      },
    ],
    [
      'GET',
      /^\/api\/runs\/([^/]+)\/claims$/,
      async (m) => {
        const runId = runIdOf(m);
        if (!(await control.ledger.getRun(runId))) throw new HttpError(404, `no such run: ${runId}`);
        // A cancelled run is over for its caller once no worker holds a claim of it any more.
        return { held: await countClaims(control.ledger, runId) };
      },
    ],
    ['GET', /^\/api\/target$/, async () => control.target],
    ['GET', /^\/api\/workers$/, async () => control.workers()],
    ['GET', /^\/api\/capacity$/, async () => control.capacity() ?? null],
    ['GET', /^\/api\/queues$/, async () => control.queues()],
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
    route[2](url.pathname.match(route[1])!, req, url, res)
      .then((value) => {
        if (value === RESPONDED) return;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      })
      .catch((error: unknown) => {
        if (res.headersSent) {
          res.end();
          return;
        }
        const status = error instanceof HttpError ? error.status : 500;
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: (error as Error).message }));
      });
  });
  // Node's whole-request limit (300 s) would cut off the body of a multi-GB upload; a body is
  // read only past the gate, from the owner, and an upload's stall is bounded by its idle limit
  // (receive-upload.ts). Headers still have 60 s.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
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
