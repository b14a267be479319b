import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly held: boolean;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The stand-in's answer, for a request passed on. */
  status?: number;
  /** The sender closed a held request (gave up on it). */
  closed?: boolean;
}

/**
 * A pass-through in front of a stand-in's endpoint that holds the requests `hold` picks: read,
 * never answered, as a transfer stalled on the network is, until their sender gives up. Headers
 * go on verbatim, so a SigV4 signature (over the Host the sender named) still holds. Every request
 * is recorded: what a test waits for (a part in flight) and what it checks (the abort sent).
 */
export async function startHoldProxy(target: string, hold: (req: IncomingMessage) => boolean) {
  const seen: SeenRequest[] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    const entry: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      held: hold(req),
      headers: { ...req.headers },
    };
    seen.push(entry);
    if (entry.held) {
      req.resume();
      res.once('close', () => {
        entry.closed = true;
      });
      return;
    }
    const onward = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        entry.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
