/** The DJEN connector against a loopback fake: paging, OAB spellings, failures, retries, budget, single items. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_UPSTREAM_MAX_BYTES } from '../http/body-limits.ts';
import { ManualClock } from '../../platform/clock.ts';
import { RequestBudget } from '../http/budget.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { DjenConnector, djenOptionsFromConfig, type DjenConnectorOptions } from './connector.ts';
import { FakeDjen, fakeItem, page, pagedHandler, realSample, type Handler } from './testing/fake-djen.ts';
import { recordingSleep } from '../testing/sleeps.ts';

async function setup(t: TestContext, handler: Handler, options: Partial<DjenConnectorOptions> = {}) {
  const fake = await FakeDjen.start(handler);
  const sleep = recordingSleep();
  const c = new DjenConnector({ baseUrl: `${fake.url}/djen`, timeoutMs: 2_000, requestsPerMinute: 100_000, sleep, random: () => 0.5, ...options });
  t.after(async () => {
    await c.close();
    await fake.close();
  });
  return { fake, c, sleep };
}

function isFailure(kind: string) {
  return (err: unknown) => {
    assert.ok(err instanceof SourceError, String(err));
    assert.equal(err.source, 'djen');
    assert.equal(err.failure, kind, err.message);
    return true;
  };
}

/** `n` items, newest first: one per id, ids descending, days spread over September. */
function items(n: number, firstId = 1_000_000, numeroOab = '57689'): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, i) => fakeItem(firstId - i, `2026-09-${String(28 - Math.floor(i / 400)).padStart(2, '0')}`, numeroOab));
}

test('info, options from config, and the path prefix of the base URL', async (t) => {
  const { fake, c } = await setup(t, () => ({ json: page([]) }), { sandbox: true });
  assert.deepEqual(c.info, { name: 'DJEN', sandbox: true });
  const limits = { ...DEFAULT_UPSTREAM_MAX_BYTES, djen: 2048 };
  assert.deepEqual(
    djenOptionsFromConfig(
      { djenTimeoutMs: 30_000, djenRequestsPerMinute: 20, upstreamMaxBytes: limits, upstreamIdleTimeoutMs: 500, devTimeScale: 1 },
      'https://comunicaapi.pje.jus.br',
      false,
    ),
    {
      baseUrl: 'https://comunicaapi.pje.jus.br',
      timeoutMs: 30_000,
      requestsPerMinute: 20,
      sandbox: false,
      retry: { baseMs: 2_000, capMs: 30_000 },
      body: { maxBytes: 2048, idleMs: 500 },
      cadernoBody: { maxBytes: DEFAULT_UPSTREAM_MAX_BYTES['djen-caderno'], idleMs: 500 },
    },
  );
  await c.search({ tribunal: 'TJSP', desde: '2026-09-18', ate: '2026-09-18' });
  assert.equal(fake.requests[0].path, '/djen/api/v1/comunicacao');
  assert.equal(c.certidaoUrl('abc'), `${fake.url}/djen/api/v1/comunicacao/abc/certidao`);
});

test('paging ignores count: stops at the first short page, even when count says 10,000', async (t) => {
  const all = items(250);
  const { fake, c } = await setup(t, pagedHandler(all, 10_000));
  const seen: Array<[number, number]> = [];
  const result = await c.search({ numeroCnj: '5004073-05.2025.4.04.7113' }, { onPage: (pages, n) => seen.push([pages, n]) });
  assert.equal(result.items.length, 250);
  assert.equal(result.complete, true);
  assert.equal(result.requests, 3);
  assert.deepEqual(
    fake.requests.map((r) => [r.query.get('pagina'), r.query.get('itensPorPagina'), r.query.get('numeroProcesso')]),
    [
      ['1', '100', '50040730520254047113'],
      ['2', '100', '50040730520254047113'],
      ['3', '100', '50040730520254047113'],
    ],
  );
  assert.deepEqual(seen, [
    [1, 100],
    [2, 200],
    [3, 250],
  ]);
  assert.deepEqual(
    result.items.map((r) => r.id),
    all.map((i) => String(i.id)),
    'newest first',
  );
  assert.deepEqual(c.stats(), { requests: 3, retries: 0, failures: 0 });
});

test('paging continues past a count smaller than a page, and asks once more after an exact multiple', async (t) => {
  const { fake, c } = await setup(t, pagedHandler(items(200), 3));
  const result = await c.search({ tribunal: 'TJRS' });
  assert.equal(result.items.length, 200);
  assert.equal(result.complete, true);
  assert.equal(fake.requests.length, 3, 'the third page is empty');
});

test('maxPages cuts the paging short with complete: false', async (t) => {
  const { fake, c } = await setup(t, pagedHandler(items(250)));
  const result = await c.search({ tribunal: 'TJRS' }, { maxPages: 2 });
  assert.equal(result.items.length, 200);
  assert.equal(result.complete, false);
  assert.equal(fake.requests.length, 2);
  await assert.rejects(c.search({ tribunal: 'TJRS' }, { maxPages: 0 }), RangeError);
});

test("DJEN's 10,000-result cap ends the paging with complete: false", async (t) => {
  const { fake, c } = await setup(t, pagedHandler(items(10_050)));
  const result = await c.search({ texto: 'penhora' });
  assert.equal(result.items.length, 10_000);
  assert.equal(result.complete, false);
  assert.equal(fake.requests.length, 100);
});

test('an OAB is asked in each spelling and the answers merged by id, newest first, without duplicates', async (t) => {
  const plain = items(3, 500);
  const dotted = [fakeItem(600, '2026-09-29', '57.689'), plain[1]];
  const suffixed = [fakeItem(400, '2026-09-01', '57689A'), plain[0]];
  const bySpelling: Record<string, unknown[]> = { '57689': plain, '57.689': dotted, '57689A': suffixed };
  const { fake, c } = await setup(t, (req) => ({ json: page(bySpelling[req.query.get('numeroOab') ?? ''] ?? []) }));
  const result = await c.search({ oab: { uf: 'RS', numero: '57689A' }, desde: '2026-09-01' });
  assert.deepEqual(
    fake.requests.map((r) => [r.query.get('numeroOab'), r.query.get('ufOab'), r.query.get('dataDisponibilizacaoInicio')]),
    [
      ['57689', 'RS', '2026-09-01'],
      ['57.689', 'RS', '2026-09-01'],
      ['57689A', 'RS', '2026-09-01'],
    ],
  );
  assert.deepEqual(
    result.items.map((r) => r.id),
    ['600', '500', '499', '498', '400'],
  );
  assert.equal(result.complete, true);
  assert.equal(result.requests, 3);
  assert.ok(
    result.items.every((r) => r.advogados[0].oab?.numero.startsWith('57689')),
    'every spelling normalized',
  );
});

test('HTTP 403 is geoblocked (DJEN refuses hosts outside Brazil), not "no results", and is not retried', async (t) => {
  const { fake, c } = await setup(t, () => ({ status: 403, text: '<html>The request could not be satisfied. blocked access from your country</html>' }));
  await assert.rejects(c.search({ oab: { uf: 'RS', numero: '123' } }), (err: unknown) => {
    isFailure('geoblocked')(err);
    assert.match((err as Error).message, /outside Brazil/);
    assert.match((err as Error).message, /Brazilian egress\/relay/);
    return true;
  });
  assert.equal(fake.requests.length, 1);
  assert.deepEqual(c.stats(), { requests: 1, retries: 0, failures: 1 });
  await assert.rejects(c.fetchOne('1'), isFailure('geoblocked'));
  await assert.rejects(c.certidao('h'), isFailure('geoblocked'));
});

test('429 waits its Retry-After (60 s when absent) and then succeeds', async (t) => {
  let calls = 0;
  const { fake, c, sleep } = await setup(t, () => {
    calls++;
    if (calls === 1) return { status: 429, headers: { 'retry-after': '7' } };
    if (calls === 2) return { status: 429 };
    return { json: page(items(2)) };
  });
  const result = await c.search({ tribunal: 'TJRS' });
  assert.equal(result.items.length, 2);
  assert.equal(result.requests, 3);
  assert.equal(fake.requests.length, 3);
  const waits = sleep.delays.filter((ms) => ms > 1_000);
  assert.equal(waits.length, 2);
  assert.ok(waits[0] > 6_000 && waits[0] <= 7_000, String(waits[0]));
  assert.ok(waits[1] > 59_000 && waits[1] <= 60_000, String(waits[1]));
  assert.deepEqual(c.stats(), { requests: 3, retries: 2, failures: 0 });
});

test('429 after two waits gives up with rate_limited and its retryAfterMs', async (t) => {
  const { fake, c } = await setup(t, () => ({ status: 429, headers: { 'retry-after': '30' } }));
  await assert.rejects(c.search({ tribunal: 'TJRS' }), (err: unknown) => {
    isFailure('rate_limited')(err);
    assert.equal((err as SourceError).retryAfterMs, 30_000);
    return true;
  });
  assert.equal(fake.requests.length, 3);
});

test('x-ratelimit-remaining ≤ 2 makes the next request wait 60 s', async (t) => {
  const clock = new ManualClock();
  const all = items(150);
  const handler = pagedHandler(all);
  const { c, sleep } = await setup(
    t,
    async (req) => ({ ...(await handler(req)), headers: { 'x-ratelimit-remaining': req.query.get('pagina') === '1' ? '2' : '15' } }),
    { clock },
  );
  const result = await c.search({ tribunal: 'TJRS' });
  assert.equal(result.items.length, 150);
  assert.deepEqual(sleep.delays, [60_000]);
});

test('503 is retried with backoff; three 503s fail as unavailable', async (t) => {
  let calls = 0;
  const { fake, c, sleep } = await setup(t, () => (++calls <= 2 ? { status: 503, text: 'Service Unavailable' } : { json: page(items(1)) }));
  const result = await c.search({ tribunal: 'TJRS' });
  assert.equal(result.items.length, 1);
  assert.equal(fake.requests.length, 3);
  assert.deepEqual(sleep.delays, [1_500, 3_000], 'equal-jitter exponential backoff (random 0.5)');
  fake.handler = () => ({ status: 503 });
  await assert.rejects(c.search({ tribunal: 'TJRS' }), isFailure('unavailable'));
  assert.deepEqual(c.stats(), { requests: 6, retries: 4, failures: 1 });
});

test('a 400 (DJEN refused the query) is unavailable and not retried; its body is named by size and hash, never quoted', async (t) => {
  const { fake, c } = await setup(t, () => ({ status: 400, json: { message: 'Informe ao menos um filtro' } }));
  await assert.rejects(
    c.search({ tribunal: 'TJRS' }),
    (err: unknown) => isFailure('unavailable')(err) && !/Informe/.test((err as Error).message) && /40 bytes, sha256 [0-9a-f]{12}/.test((err as Error).message),
  );
  assert.equal(fake.requests.length, 1);
});

test('a timeout is timeout, retried like an outage', async (t) => {
  const { fake, c } = await setup(t, () => ({ json: page([]), delayMs: 1_000 }), { timeoutMs: 100, retry: { attempts: 2 } });
  await assert.rejects(c.search({ tribunal: 'TJRS' }), isFailure('timeout'));
  assert.equal(fake.requests.length, 2);
});

test('a network failure is unavailable', async (t) => {
  const { c } = await setup(t, () => ({ json: page([]) }), { baseUrl: 'http://127.0.0.1:1', retry: { attempts: 1 } });
  await assert.rejects(c.search({ tribunal: 'TJRS' }), isFailure('unavailable'));
});

test('a body that is not JSON, or JSON without items, is malformed (not retried)', async (t) => {
  const { fake, c } = await setup(t, () => ({ text: '<html>maintenance</html>' }));
  await assert.rejects(c.search({ tribunal: 'TJRS' }), isFailure('malformed'));
  assert.equal(fake.requests.length, 1);
  fake.handler = () => ({ json: { status: 'success', count: 3 } });
  await assert.rejects(c.search({ tribunal: 'TJRS' }), isFailure('malformed'));
  fake.handler = () => ({ json: page([fakeItem(1), { ...fakeItem(2), siglaTribunal: null }]) });
  await assert.rejects(c.search({ tribunal: 'TJRS' }), isFailure('malformed'));
});

test('every attempt spends one request of a shared budget', async (t) => {
  const budget = new RequestBudget({ perMinute: 1_000 });
  let calls = 0;
  const { c } = await setup(t, () => (++calls === 1 ? { status: 503 } : { json: page(items(5)) }), { budget });
  await c.search({ tribunal: 'TJRS' });
  assert.equal(budget.granted, 2);
});

test('fetchOne: the item; 404 → null; a non-numeric id → null without a request', async (t) => {
  const sample = realSample();
  const { fake, c } = await setup(t, (req) => {
    if (req.path === '/djen/api/v1/comunicacao/731069288') return { json: { status: 'success', message: 'Sucesso', items: [sample.items[0]] } };
    return { status: 404, json: { message: 'Comunicação não encontrada' } };
  });
  const one = await c.fetchOne('731069288');
  assert.equal(one?.id, '731069288');
  assert.equal(one?.advogados.length, 3);
  assert.equal(await c.fetchOne('5'), null);
  assert.equal(await c.fetchOne('abc'), null);
  assert.equal(fake.requests.length, 2);
  assert.deepEqual(c.stats(), { requests: 2, retries: 0, failures: 0 });
});

test('certidao: the PDF bytes; 404 → null; a body that is not a PDF is malformed', async (t) => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(60_000, 7), Buffer.from('\n%%EOF\n')]);
  const { fake, c } = await setup(t, (req) => {
    if (req.path === '/djen/api/v1/comunicacao/2nqe4VJbRaDSOPBIzTn1d2bYKk7AgO/certidao') return { body: pdf, headers: { 'content-type': 'application/pdf' } };
    if (req.path === '/djen/api/v1/comunicacao/html/certidao') return { text: '<html></html>' };
    return { status: 404 };
  });
  const bytes = await c.certidao('2nqe4VJbRaDSOPBIzTn1d2bYKk7AgO');
  assert.ok(bytes instanceof Uint8Array);
  assert.deepEqual(Buffer.from(bytes), pdf);
  assert.equal(await c.certidao('missing'), null);
  await assert.rejects(c.certidao('html'), isFailure('malformed'));
  assert.equal(fake.requests[0].headers.accept, 'application/pdf');
});

test('an aborted signal stops the call; close() aborts requests in flight and refuses new ones', async (t) => {
  const { fake, c } = await setup(t, () => ({ json: page([]), delayMs: 5_000 }));
  const controller = new AbortController();
  controller.abort(new Error('caller gave up'));
  await assert.rejects(c.search({ tribunal: 'TJRS' }, { signal: controller.signal }), /caller gave up/);
  assert.equal(fake.requests.length, 0);
  const pending = assert.rejects(c.search({ tribunal: 'TJRS' }), isFailure('unavailable'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  await c.close();
  await pending;
  await assert.rejects(c.search({ tribunal: 'TJRS' }), /closed/);
  assert.deepEqual(c.stats().failures, 0, 'an abort is not a failure');
});
