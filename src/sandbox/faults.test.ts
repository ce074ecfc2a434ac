/** Fault injection and counters: in process and over HTTP, each fault kind against real requests. */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FaultError, SandboxFaults } from './faults.ts';
import { esSearch, startTestSandbox, type TestSandbox } from './testing.ts';

describe('SandboxFaults', () => {
  test('set replaces, times counts requests down, reset restores the default latency', () => {
    const f = new SandboxFaults(25);
    assert.equal(f.take('datajud').latencyMs, 25);
    f.set({ upstream: 'portal', status: 503, times: 2 });
    assert.equal(f.take('datajud').status, null);
    assert.equal(f.get().portal.remaining, 2);
    assert.equal(f.take('portal').status, 503);
    assert.equal(f.take('portal').status, 503);
    assert.equal(f.take('portal').status, null);
    assert.equal(f.get().portal.latencyMs, 25);
    f.set({ hang: true, partialShards: true });
    assert.equal(f.get().datajud.partialShards, true);
    assert.equal(f.get().portal.partialShards, false, 'partial shards is a DataJud thing');
    assert.equal(f.take('portal').hang, true);
    f.reset('portal');
    assert.equal(f.get().portal.hang, false);
    assert.equal(f.get().datajud.hang, true);
  });

  test("'all' and the older 'both' reach every upstream, DJEN and the model included", () => {
    const f = new SandboxFaults();
    f.set({ upstream: 'both', status: 403 });
    assert.deepEqual(Object.keys(f.get()), [
      'datajud',
      'portal',
      'djen',
      'llm',
      'stf',
      'dje',
      'mural',
      'provedor',
      'mandados',
      'protocolo',
      'tjrj',
      'pje',
      'consultas',
    ]);
    assert.equal(f.take('djen').status, 403);
    assert.equal(f.take('llm').status, 403);
    f.set({ upstream: 'all', status: 503 });
    assert.ok(Object.values(f.get()).every((a) => a.status === 503));
    f.reset('all');
    assert.ok(Object.values(f.get()).every((a) => a.status === null));
  });

  test('bad settings are refused', () => {
    const f = new SandboxFaults();
    for (const bad of [
      { status: 404 },
      { latencyMs: -1 },
      { times: 0 },
      { upstream: 'tjsp' },
      { upstream: 'portal', partialShards: true },
      { upstream: 'djen', partialShards: true },
      { colour: 'red' },
      { hang: 'yes' },
    ]) {
      assert.throws(() => f.set(bad as never), FaultError, JSON.stringify(bad));
    }
  });
});

describe('faults over HTTP', () => {
  let sb: TestSandbox;
  let numero: string;
  let alias: string;
  before(async () => {
    sb = await startTestSandbox({ cases: 200 });
    numero = sb.dataset.cases.find((x) => x.filedAt <= sb.dataset.now())!.numero;
    alias = [...new Set(sb.dataset.cases.map((c) => c.alias))].sort((a, b) => sb.dataset.instancesOf(b)!.length - sb.dataset.instancesOf(a)!.length)[0];
  });
  after(() => sb.close());
  beforeEach(() => {
    sb.faults.reset();
    sb.resetStats();
  });

  const portal = () => fetch(`${sb.portalUrl}/api/v1/processos/${numero}`);
  const datajud = (query: unknown = { size: 100 }) => esSearch(sb, alias, query);

  test('latency delays the answer', async () => {
    sb.faults.set({ upstream: 'portal', latencyMs: 60_000 });
    // Held back a minute, the answer cannot beat a client that gives up after a second (long enough for the
    // request to reach the simulator on a loaded machine, which the count below needs).
    await assert.rejects(fetch(`${sb.portalUrl}/api/v1/processos/${numero}`, { signal: AbortSignal.timeout(1_000) }), { name: 'TimeoutError' });
    sb.faults.set({ upstream: 'portal', latencyMs: 1 });
    assert.equal((await portal()).status, 200, 'a delayed answer is still the answer');
    assert.equal(sb.stats().portal.faults.latency, 2);
  });

  test('status for the next N requests, 429 with Retry-After, 502 as the gateway HTML', async () => {
    sb.faults.set({ upstream: 'both', status: 503, times: 2 });
    assert.equal((await portal()).status, 503);
    const es = await datajud();
    assert.equal(es.status, 503);
    assert.equal(es.body.status, 503);
    assert.equal((await portal()).status, 503, 'each upstream counts its own requests');
    assert.equal((await portal()).status, 200);
    sb.faults.set({ upstream: 'portal', status: 429, retryAfterSeconds: 7 });
    const limited = await portal();
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '7');
    sb.faults.set({ upstream: 'datajud', status: 502 });
    const gateway = await datajud();
    assert.equal(gateway.status, 502);
    assert.match(gateway.body, /<title>502 Bad Gateway<\/title>/);
  });

  test('malformed: a 200 whose JSON is cut', async () => {
    sb.faults.set({ upstream: 'datajud', malformed: true, times: 1 });
    const cut = await datajud();
    assert.equal(cut.status, 200);
    assert.equal(typeof cut.body, 'string');
    assert.throws(() => JSON.parse(cut.body));
    assert.equal(typeof (await datajud()).body, 'object');
  });

  test('partial shard failure: _shards.failed and fewer hits', async () => {
    const full = await datajud({ size: 1000 });
    sb.faults.set({ upstream: 'datajud', partialShards: true });
    const partial = await datajud({ size: 1000 });
    assert.equal(partial.body._shards.failed, 1);
    assert.equal(partial.body._shards.successful, 4);
    assert.ok(partial.body._shards.failures.length === 1);
    assert.ok(partial.body.hits.hits.length < full.body.hits.hits.length);
    const ids = new Set(full.body.hits.hits.map((h: { _id: string }) => h._id));
    assert.ok(partial.body.hits.hits.every((h: { _id: string }) => ids.has(h._id)));
  });

  test('hang: no answer until the client gives up; close() still ends quickly', async () => {
    sb.faults.set({ upstream: 'portal', hang: true });
    await assert.rejects(fetch(`${sb.portalUrl}/api/v1/processos/${numero}`, { signal: AbortSignal.timeout(150) }), { name: 'TimeoutError' });
    assert.equal(sb.stats().portal.faults.hang, 1);
    assert.deepEqual(sb.stats().portal.responses, {});

    const other = await startTestSandbox({ cases: 50 });
    other.faults.set({ hang: true });
    const pending = fetch(`${other.portalUrl}/api/v1/processos/${numero}`).then(
      () => 'answered',
      () => 'closed',
    );
    await new Promise((r) => setTimeout(r, 50));
    // A close() that waited for the hung request would never return: the test's timeout would fail it.
    await other.close();
    assert.equal(await pending, 'closed');
  });

  test('close() also ends requests waiting out a long latency', async () => {
    // Longer than the test's timeout: a close() that waited it out would fail the test.
    const other = await startTestSandbox({ cases: 50, latencyMs: 600_000 });
    const pending = fetch(`${other.portalUrl}/api/v1/processos/${numero}`).then(
      () => 'answered',
      () => 'closed',
    );
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    assert.equal(await pending, 'closed');
  });

  test('PUT/GET/DELETE /_sandbox/faults and /_sandbox/stats', async () => {
    const put = await fetch(`${sb.url}/_sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ upstream: 'portal', status: 500, times: 1 }),
    });
    assert.equal(put.status, 200);
    const state = await put.json();
    assert.equal(state.portal.status, 500);
    assert.equal(state.portal.remaining, 1);
    assert.equal(state.datajud.status, null);
    assert.equal((await portal()).status, 500);
    assert.equal((await portal()).status, 200);
    await datajud();
    const stats = await (await fetch(`${sb.url}/_sandbox/stats`)).json();
    assert.deepEqual(stats.portal, { requests: 2, bySegment: { api: 2 }, responses: { 200: 1, 500: 1 }, faults: { status: 1 } });
    assert.equal(stats.datajud.requests, 1);
    const bad = await fetch(`${sb.url}/_sandbox/faults`, { method: 'PUT', body: JSON.stringify({ upstream: 'portal', partialShards: true }) });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).message, /DataJud only/);
    await fetch(`${sb.url}/_sandbox/faults`, { method: 'PUT', body: JSON.stringify({ status: 503 }) });
    const reset = await (await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' })).json();
    assert.equal(reset.portal.status, null);
    assert.equal(reset.datajud.status, null);
    assert.equal((await (await fetch(`${sb.url}/_sandbox/stats`, { method: 'DELETE' })).json()).portal.requests, 0);
    const info = await (await fetch(`${sb.url}/_sandbox`)).json();
    assert.equal(info.portalUrl, sb.portalUrl);
    assert.equal(info.cases, 200);
  });
});
