/**
 * The one Retry-After reader and the one timeout classification (sources/http/), then every connector
 * that retries a 429 (DataJud, DJEN, the portal, the chat model, HttpUpstream under STF and the rest)
 * given `Retry-After: 1.5`, `0` and an HTTP date: the wait each takes before asking again, read from
 * its injected sleep (the clock is a ManualClock the sleep moves on), never from the wall clock.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../platform/clock.ts';
import { retryAfterMs } from './retry-after.ts';
import { isUpstreamTimeout } from './timeout.ts';
import type { Sleep } from './waits.ts';
import { DataJudConnector } from '../datajud/connector.ts';
import { DjenConnector } from '../djen/connector.ts';
import { PortalConnector } from '../portal/connector.ts';
import { ChatCompletionsConnector } from '../chat/connector.ts';
import { HttpUpstream, upstreamError } from './upstream.ts';

const NOW = Date.parse('2026-03-02T12:00:00Z');

test('Retry-After: delta-seconds (fractions too), 0, an HTTP date, and what is neither', () => {
  assert.equal(retryAfterMs('2', NOW), 2_000);
  assert.equal(retryAfterMs('1.5', NOW), 1_500, 'a fraction is seconds, not a date in 2001');
  assert.equal(retryAfterMs(' 0 ', NOW), 0);
  assert.equal(retryAfterMs('Mon, 02 Mar 2026 12:00:05 GMT', NOW), 5_000);
  assert.equal(retryAfterMs('Mon, 02 Mar 2026 11:59:00 GMT', NOW), 0, 'a date already past: at once');
  assert.equal(retryAfterMs(['3', '9'], NOW), 3_000, 'a repeated header: the first');
  for (const bad of [undefined, '', 'soon', '-1', '1e3', '+5']) assert.equal(retryAfterMs(bad, NOW), undefined, String(bad));
});

test("a timeout is the attempt's own timer or undici's, nothing else", () => {
  const timeout = new Error('timeout after 10 ms');
  timeout.name = 'TimeoutError';
  assert.equal(isUpstreamTimeout(timeout), true);
  for (const code of ['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])
    assert.equal(isUpstreamTimeout(Object.assign(new Error('x'), { code })), true, code);
  for (const other of [Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET' }), null, 'TIMEOUT'])
    assert.equal(isUpstreamTimeout(other), false, String(other));
});

/** A server that answers every request 429 with the Retry-After the test sets, counting requests. */
async function rateLimitingServer() {
  const state = { retryAfter: '0', requests: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    state.requests++;
    res.writeHead(429, { 'retry-after': state.retryAfter, 'content-type': 'application/json' }).end('{"error":"slow down"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

type Server = Awaited<ReturnType<typeof rateLimitingServer>>;

/** Waits recorded without waiting: each moves the clock on by its length. Only those between the first and the second request count. */
function recordingSleep(clock: ManualClock, server: Server) {
  const waits: number[] = [];
  const sleep: Sleep = async (ms, signal) => {
    signal?.throwIfAborted();
    if (server.state.requests === 1) waits.push(ms);
    clock.advance(ms);
  };
  return { sleep, waited: () => waits.reduce((a, b) => a + b, 0) };
}

interface Subject {
  name: string;
  /** One call through the connector, which meets the 429s, waits once and fails. */
  ask(url: string, hooks: { clock: ManualClock; sleep: Sleep }): Promise<unknown>;
}

const SUBJECTS: Subject[] = [
  {
    name: 'DataJud',
    async ask(url, { clock, sleep }) {
      const c = new DataJudConnector({
        baseUrl: url,
        apiKey: 'k',
        timeoutMs: 5_000,
        requestsPerMinute: 1_000,
        batchSize: 10,
        clock,
        sleep,
        random: () => 0,
        // No backoff of its own: the wait is the Retry-After alone.
        retry: { attempts: 2, baseMs: 0, capMs: 0, maxRetryAfterMs: 60_000 },
        coalesceWindowMs: 0,
      });
      try {
        return await c.fetchCase('00000016820268260100');
      } finally {
        await c.close();
      }
    },
  },
  {
    name: 'DJEN',
    async ask(url, { clock, sleep }) {
      const c = new DjenConnector({
        baseUrl: url,
        timeoutMs: 5_000,
        requestsPerMinute: 1_000,
        clock,
        sleep,
        random: () => 0,
        retry: { rateLimitWaits: 1, maxRetryAfterMs: 60_000 },
      });
      try {
        return await c.fetchOne('123');
      } finally {
        await c.close();
      }
    },
  },
  {
    name: 'portal',
    async ask(url, { clock, sleep }) {
      const c = new PortalConnector({ baseUrl: url, retries: 1, maxRetryAfterMs: 60_000, clock, sleep });
      try {
        return await c.fetchDetails('00000010120268260100');
      } finally {
        await c.close();
      }
    },
  },
  {
    name: 'chat model',
    async ask(url, { clock, sleep }) {
      const c = new ChatCompletionsConnector({ baseUrl: url, model: 'm', retries: 1, maxRetryAfterMs: 60_000, clock, sleep });
      try {
        return await c.complete({ messages: [{ role: 'user', content: 'oi' }], maxTokens: 10 });
      } finally {
        await c.close();
      }
    },
  },
  {
    name: 'HttpUpstream (STF, DJE, TSE, BNMP, Protocolo, TJRJ, consultations)',
    async ask(url, { clock, sleep }) {
      const u = new HttpUpstream({
        baseUrl: url,
        source: 'stf',
        label: 'STF',
        error: upstreamError('stf'),
        retries: 1,
        maxRetryAfterMs: 60_000,
        perMinute: 1_000,
        clock,
        sleep,
      });
      try {
        return await u.send('GET', '/x');
      } finally {
        await u.close();
      }
    },
  },
];

const CASES: Array<{ header: (clock: ManualClock) => string; waits: number }> = [
  { header: () => '1.5', waits: 1_500 },
  { header: () => '0', waits: 0 },
  { header: (clock) => new Date(clock.now().getTime() + 5_000).toUTCString(), waits: 5_000 },
];

describe('every connector waits what Retry-After says before asking again', () => {
  let server: Server;
  before(async () => {
    server = await rateLimitingServer();
  });
  after(() => server.close());

  for (const subject of SUBJECTS) {
    test(subject.name, async () => {
      for (const c of CASES) {
        const clock = new ManualClock(new Date(NOW).toISOString());
        server.state.retryAfter = c.header(clock);
        server.state.requests = 0;
        const { sleep, waited } = recordingSleep(clock, server);
        await assert.rejects(subject.ask(server.url, { clock, sleep }), (err: { failure?: string }) => err.failure === 'rate_limited');
        assert.equal(server.state.requests, 2, `${subject.name}, Retry-After ${server.state.retryAfter}: asked again once`);
        assert.equal(waited(), c.waits, `${subject.name}, Retry-After ${server.state.retryAfter}`);
      }
    });
  }
});
