import { createServer, request } from 'node:http';

export interface CountingProxy {
  readonly endpoint: string;
  /** Requests forwarded, by HTTP method. */
  counts(): Record<string, number>;
  close(): Promise<void>;
}

/**
 * An HTTP reverse proxy on loopback that counts what passes through it: put in front of the
 * local S3 so that GDAL's own ranged GETs (which the SDK middleware cannot see) are counted.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const url = new URL(target);
  const counts: Record<string, number> = {};
  const server = createServer((req, res) => {
    counts[req.method ?? '?'] = (counts[req.method ?? '?'] ?? 0) + 1;
    const upstream = request(
      { host: url.hostname, port: url.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
