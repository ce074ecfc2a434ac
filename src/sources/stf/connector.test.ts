/** StfConnector against the sandbox's STF API on 127.0.0.1: the handshake, whole days in pages, and every failure it maps. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceError } from '../../platform/ports/sources.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { parseOab, StfConnector, type StfConnectorOptions } from './connector.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const connectors: StfConnector[] = [];
after(() => Promise.all(connectors.map((c) => c.close())));
function connector(options: Partial<StfConnectorOptions> = {}) {
  const c = new StfConnector({ baseUrl: sb.stfUrl, sandbox: true, perMinute: 100_000, retryDelaysMs: [1, 1], sleep: async () => {}, ...options });
  connectors.push(c);
  return c;
}

function failure(failure: string) {
  return (err: unknown) => err instanceof SourceError && err.failure === failure && err.source === 'stf';
}

test('lastDay and a whole day read in pages until a short one, each item parsed (OABs from identificacoes)', async () => {
  const stf = connector({ pageSize: 7 });
  const day = await stf.lastDay();
  const items = await stf.day(day);
  const expected = sb.stf.gazette.day(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
  assert.deepEqual(items.map((i) => i.id), expected.map((i) => String(i.id)), 'every item once, in order, across pages');
  const withOab = items.find((i) => i.envolvidos.some((e) => e.oabs.length > 0))!;
  assert.ok(withOab, 'lawyers carry their OAB');
  assert.equal(withOab.divulgacao, day);
  assert.match(withOab.html, /^<div/);
  assert.ok(withOab.raw && typeof withOab.raw === 'object');
  const saturday = '2026-03-14';
  assert.deepEqual(await stf.day(saturday), [], 'no divulgação on a weekend');
});

test('a session that died (403) is opened again once; a WAF challenge is unavailable, never data', async () => {
  const stf = connector();
  const day = await stf.lastDay();
  sb.stf.knobs.set({ expireSessions: true });
  sb.stf.knobs.reset();
  assert.ok((await stf.day(day)).length > 0, 'the 403 led to a new handshake');
  sb.stf.knobs.set({ wafChallenge: true });
  try {
    await assert.rejects(connector().lastDay(), failure('unavailable'));
  } finally {
    sb.stf.knobs.reset();
  }
});

test('5xx and 429 are retried (Retry-After honoured); past the retries they are SourceErrors; a cut body is malformed', async () => {
  const stf = connector();
  const day = await stf.lastDay();
  try {
    sb.faults.set({ upstream: 'stf', status: 503, times: 1 });
    assert.ok((await stf.day(day)).length > 0, 'one 503, then the answer');
    sb.faults.set({ upstream: 'stf', status: 503 });
    await assert.rejects(stf.day(day), failure('unavailable'));
    sb.faults.set({ upstream: 'stf', status: 429, retryAfterSeconds: 120 });
    await assert.rejects(stf.day(day), failure('rate_limited'));
    sb.faults.set({ upstream: 'stf', malformed: true });
    await assert.rejects(stf.day(day), failure('malformed'));
  } finally {
    sb.faults.reset();
  }
});

test('parseOab reads the spellings STF prints', () => {
  assert.deepEqual(parseOab('OAB 12345/SP'), { uf: 'SP', numero: '12345' });
  assert.deepEqual(parseOab('OAB 012.345-A/rj'), { uf: 'RJ', numero: '12345A' });
  assert.equal(parseOab('CPF 123'), null);
});
