import { connect, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'pass' | 'blackhole' | 'refuse';

export interface TcpProxy {
  readonly port: number;
  readonly endpoint: string;
  /** pass: forward; blackhole: accept and never answer (a hung service); refuse: reset at once (gone). */
  setMode(mode: ProxyMode): void;
  /** Client connections open now: a request the client abandoned has closed its own. */
  openClients(): number;
  close(): Promise<void>;
}

/** A fault-injecting TCP proxy on loopback in front of one of the local stack's endpoints. */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const url = new URL(target);
  let mode: ProxyMode = 'pass';
  const sockets = new Set<Socket>();
  const clients = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    clients.add(client);
    client.on('close', () => {
      sockets.delete(client);
      clients.delete(client);
    });
    client.on('error', () => {});
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'blackhole') {
      // Hold the connection and say nothing; read and drop what comes, so that the client's
      // close is seen (a paused socket never reaches its end of file).
      client.resume();
      return;
    }
    const upstream = connect(Number(url.port), url.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    endpoint: `http://127.0.0.1:${port}`,
    setMode(next) {
      mode = next;
      // Existing connections follow the new mode too: a service that goes away drops them.
      if (next !== 'pass') for (const s of sockets) s.destroy();
    },
    openClients: () => clients.size,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
