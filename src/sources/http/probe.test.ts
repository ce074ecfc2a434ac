/** The prober's request (probe.ts): any answer is an answer; silence and a closed port are classified like a connector's. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { probeUpstream } from './probe.ts';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('a probe: a 503 is an answer; silence is a timeout; a closed port is unavailable', async (t) => {
  let asked = 0;
  const answering = createServer((_, res) => {
    asked++;
    res.writeHead(503).end('down for maintenance');
  });
  const silent = createServer(() => {});
  t.after(() => {
    answering.close();
    silent.closeAllConnections();
    silent.close();
  });
  assert.equal(await probeUpstream('djen', await listen(answering), 2_000), null);
  assert.equal(asked, 1);
  const quiet = await probeUpstream('djen', await listen(silent), 100);
  assert.equal(quiet?.failure, 'timeout', quiet?.message);
  const closed = createServer();
  const url = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
  const refused = await probeUpstream('djen', url, 2_000);
  assert.equal(refused?.failure, 'unavailable');
  assert.match(refused?.message ?? '', /ECONNREFUSED/);
});
