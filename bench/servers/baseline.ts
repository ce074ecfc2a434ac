/** Baseline: the smallest useful node:http server, `{"hello":"world"}` as JSON, in its own process. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleDriver, send } from './ipc.ts';

const BODY = JSON.stringify({ hello: 'world' });

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY) });
  res.end(BODY);
});

handleDriver({
  close: async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
});

server.listen(0, '127.0.0.1', () => {
  send({ type: 'ready', port: (server.address() as AddressInfo).port, engine: null, details: {} });
});
