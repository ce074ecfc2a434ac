/**
 * Closing a connector (the process is stopping) ends what it has in flight at once: a request an
 * upstream never answers, a wait for the request budget. The callers get the connector's own error,
 * marked as a closing (ports/source-error.ts), which an operation reports as OPERATION_INTERRUPTED.
 * Without the abort a shutdown waited for hung requests until their timeouts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isClosedConnector, RetryableSourceError } from '../../platform/ports/source-error.ts';
import { toApiError } from '../../platform/http/error-handler.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { HttpUpstream, upstreamError } from './upstream.ts';
import { PortalConnector } from '../portal/connector.ts';

/** A server that reads every request and never answers it (until it is closed). */
let silent: Server;
let silentUrl: string;
before(async () => {
  silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
after(() => {
  silent.closeAllConnections();
  silent.close();
});

const upstream = (perMinute = 60) =>
  new HttpUpstream({ baseUrl: silentUrl, source: 'stf', label: 'STF', error: upstreamError('stf'), timeoutMs: 60_000, perMinute, retries: 0 });

async function closedWith(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => assert.fail('resolved after its connector was closed'),
    (e: Error) => e,
  );
  assert.ok(isClosedConnector(err), `a closing error, not ${err.message}`);
  return err;
}

test('a request the upstream never answers ends when the connector closes, not at its timeout, and is not retried', async () => {
  const http = upstream();
  const ended = closedWith(http.send('GET', '/never'));
  await new Promise((r) => setTimeout(r, 50));
  await http.close();
  const err = await ended;
  assert.ok(err instanceof RetryableSourceError && !err.retryable);
  assert.equal(toApiError(err).code, 'OPERATION_INTERRUPTED');
});

test('a request waiting for the budget ends when the connector closes, and one sent after is refused the same way', async () => {
  const http = upstream(1);
  const first = closedWith(http.send('GET', '/first'));
  // The budget's only slot of the minute is taken: this one waits for the next.
  const waiting = closedWith(http.send('GET', '/second'));
  await new Promise((r) => setTimeout(r, 50));
  await http.close();
  await first;
  await waiting;
  await closedWith(http.send('GET', '/third'));
});

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ cases: 50 });
});
after(() => sb.close());

test('the portal connector: a lookup the provider never answers ends when it closes', async () => {
  const portal = new PortalConnector({ baseUrl: sb.portalUrl, timeoutMs: 60_000, retries: 0, sandbox: true });
  sb.faults.set({ upstream: 'portal', hang: true });
  const ended = closedWith(portal.fetchDetails('10001497120248260346'));
  await new Promise((r) => setTimeout(r, 50));
  await portal.close();
  const err = await ended;
  assert.equal(toApiError(err).code, 'OPERATION_INTERRUPTED');
  sb.faults.reset();
});
