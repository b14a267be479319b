import { createServer } from 'node:http';
// Static: this module is itself loaded only in the SQS stand-in's process (emulator-main.ts), and
// a CommonJS package's named exports, imported dynamically, are lost in the CLI's bundle.
import { createRequestHandler } from 'local-aws-sqs';
import type { StartedEmulator } from './emulator-protocol.js';
import { StackStartError } from './errors.js';
import { authorizedRequest } from './stand-in-auth.js';

/**
 * The SQS emulator behind a check of this start's access key id (it checks no credentials
 * itself), on a port this process binds (port 0).
 */
export async function startSqs(keyId: string): Promise<StartedEmulator> {
  const { requestHandler, service } = createRequestHandler({
    port: 0,
    hostname: '127.0.0.1',
    emulateQueueCreationLifecycle: false,
  });
  const server = createServer((req, res) => {
    if (authorizedRequest(req.headers, req.url ?? '/', keyId)) {
      void requestHandler(req, res);
      return;
    }
    res.writeHead(403, { 'content-type': 'application/x-amz-json-1.0' }).end(
      JSON.stringify({
        __type: 'com.amazonaws.sqs#AccessDenied',
        message: 'Access to the resource is denied.',
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new StackStartError('the SQS server has no address');
  // Queue URLs carry the port; the emulator learns it from here, as its own server would tell it.
  (service as unknown as { PORT: number }).PORT = address.port;
  return {
    port: address.port,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
