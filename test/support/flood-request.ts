import { connect } from 'node:net';

/**
 * A request that states `length` bytes of body and sends up to `send` of them as fast as the
 * server takes them (`send` < `length`: a body never finished). Resolves once the connection is
 * closed, by the server or by this sender 2 s after its last byte, with the server's status line
 * ('' if none) and the bytes written.
 */
export function floodRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; length: number; send: number },
): Promise<{ status: string; written: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let written = 0;
    const headers = {
      host: `127.0.0.1:${port}`,
      'content-length': String(options.length),
      ...options.headers,
    };
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const done = () => resolve({ status: answer.split('\r\n')[0] ?? '', written });
    socket.on('data', (d) => {
      answer += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.once('close', done);
    socket.write(`${options.method ?? 'PUT'} ${options.path ?? '/'} HTTP/1.1\r\n${head}\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const pump = () => {
      while (written < options.send && !socket.destroyed) {
        const part =
          options.send - written >= chunk.length ? chunk : chunk.subarray(0, options.send - written);
        written += part.length;
        if (!socket.write(part)) return void socket.once('drain', pump);
      }
      // All sent: the server holds what it kept of it for 2 s, then the client goes.
      if (!socket.destroyed) setTimeout(() => socket.destroy(), 2_000);
    };
    pump();
  });
}
