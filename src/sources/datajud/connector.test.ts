/** The DataJud connector against a fake server: batching, coalescing, paging, retries, failures, budget. */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { COURTS } from '../../platform/courts/table.ts';
import { ManualClock } from '../../platform/clock.ts';
import { RequestBudget } from '../http/budget.ts';
import type { DataJudConnector, DataJudConnectorOptions } from './connector.ts';
import { isDataJudFailure } from './errors.ts';
import type { RetryableSourceError } from '../../platform/ports/source-error.ts';
import { FakeDataJud, FakeIndexes, cnjNumber, esResponse, fakeDoc, type Handler } from './testing/fake-datajud.ts';
import { clockSleep, recordingSleep } from '../testing/sleeps.ts';
import { connector } from './testing/setup.ts';

async function setup(t: TestContext, handler: Handler, options: Partial<DataJudConnectorOptions> = {}): Promise<{ fake: FakeDataJud; c: DataJudConnector }> {
  const fake = await FakeDataJud.start(handler);
  const c = connector(fake.url, options);
  t.after(async () => {
    await c.close();
    await fake.close();
  });
  return { fake, c };
}

function isFailure(kind: string) {
  return (err: unknown) => {
    assert.ok(isDataJudFailure(err), String(err));
    assert.equal(err.failure, kind, err.message);
    return true;
  };
}

/** `count` numbers of court J.TR, with G1+G2 documents for the even ones. */
function populate(indexes: FakeIndexes, alias: string, sigla: string, j: string, tr: string, count: number): string[] {
  const numbers: string[] = [];
  for (let i = 0; i < count; i++) {
    const numero = cnjNumber(i + 1, j, tr);
    numbers.push(numero);
    if (i % 2 === 0) indexes.add(alias, fakeDoc(numero, 'G2', 2_000 + i, sigla), fakeDoc(numero, 'G1', 1_000 + i, sigla));
  }
  indexes.create(alias);
  return numbers;
}

test('info names the source and says whether it is the sandbox; no numbers, no request', async (t) => {
  const { fake, c } = await setup(t, () => ({ json: esResponse([]) }), { sandbox: true });
  assert.deepEqual(c.info, { name: 'DataJud', sandbox: true });
  assert.equal((await c.fetchCases([])).size, 0);
  assert.equal(fake.requests.length, 0);
});

test('1,000 numbers over 3 aliases: one terms request per alias per batch, every found case with its instances', async (t) => {
  const indexes = new FakeIndexes();
  const trf4 = populate(indexes, 'api_publica_trf4', 'TRF4', '4', '04', 500);
  const tjsp = populate(indexes, 'api_publica_tjsp', 'TJSP', '8', '26', 300);
  const trt2 = populate(indexes, 'api_publica_trt2', 'TRT2', '5', '02', 200);
  const batchSize = 128;
  const { fake, c } = await setup(t, indexes.handler, { batchSize });
  const all = [...trf4, ...tjsp, ...trt2];
  const found = await c.fetchCases([...all, ...trf4.slice(0, 10)]);
  assert.equal(found.size, 250 + 150 + 100, 'the even numbers exist; the odd ones are simply absent');
  for (const [alias, n] of [
    ['api_publica_trf4', 500],
    ['api_publica_tjsp', 300],
    ['api_publica_trt2', 200],
  ] as const) {
    const requests = fake.requestsTo(alias);
    assert.equal(requests.length, Math.ceil(n / batchSize), alias);
    for (const r of requests) {
      const terms: string[] = r.body.query.terms.numeroProcesso;
      assert.ok(terms.length <= batchSize);
      assert.equal(r.body.size, Math.min(10_000, terms.length * 6));
      assert.deepEqual(r.body.sort, [{ '@timestamp': 'asc' }]);
    }
    assert.equal(new Set(requests.flatMap((r) => r.body.query.terms.numeroProcesso)).size, n, 'each number asked once');
  }
  const one = found.get(trf4[0])!;
  assert.equal(one.tribunal, 'TRF4');
  assert.deepEqual(
    one.instancias.map((i) => i.grau),
    ['G1', 'G2'],
  );
  assert.equal(found.has(trf4[1]), false);
  assert.deepEqual(c.stats(), { requests: 4 + 3 + 2, retries: 0, failures: 0 });
});

test('concurrent fetchCase calls coalesce per alias and flush early at batchSize', async (t) => {
  const indexes = new FakeIndexes();
  const trf4 = populate(indexes, 'api_publica_trf4', 'TRF4', '4', '04', 250);
  const tjsp = populate(indexes, 'api_publica_tjsp', 'TJSP', '8', '26', 40);
  const { fake, c } = await setup(t, indexes.handler, { batchSize: 100 });
  const lookups = [...trf4, ...tjsp, trf4[0]];
  const results = await Promise.all(lookups.map((n) => c.fetchCase(n)));
  results.forEach((r, i) => {
    const even = (i < 250 ? i : i === lookups.length - 1 ? 0 : i - 250) % 2 === 0;
    assert.equal(r?.numeroCnj ?? null, even ? lookups[i] : null, lookups[i]);
  });
  assert.equal(fake.requestsTo('api_publica_trf4').length, 3, '100 + 100 + 50');
  assert.equal(fake.requestsTo('api_publica_tjsp').length, 1);
  assert.deepEqual(
    fake.requestsTo('api_publica_trf4').map((r) => r.body.query.terms.numeroProcesso.length),
    [100, 100, 51],
    'the repeated number joins the open batch',
  );
});

test('10,000 concurrent cold lookups over the 91 aliases cost at most 10 requests per 1,000 cases', async (t) => {
  const indexes = new FakeIndexes();
  const routable = COURTS.filter((court) => court.datajudAlias !== null);
  for (const court of routable) indexes.create(court.datajudAlias!);
  const { fake, c } = await setup(t, indexes.handler, { batchSize: 500 });
  const lookups = Array.from({ length: 10_000 }, (_, i) => {
    const court = routable[i % routable.length];
    return cnjNumber(i + 1, court.j, court.tr);
  });
  const results = await Promise.all(lookups.map((n) => c.fetchCase(n)));
  assert.equal(results.filter((r) => r !== null).length, 0);
  assert.equal(routable.length, 91);
  assert.ok(fake.requests.length <= 100, `${fake.requests.length} requests`);
  assert.equal(fake.requests.length, 91 + 1, 'one terms request per alias, plus the TRE-DF probe');
});

test('a full page continues with search_after, without skipping documents that share the boundary millisecond', async (t) => {
  const indexes = new FakeIndexes();
  const a = cnjNumber(1, '4', '04');
  const b = cnjNumber(2, '4', '04');
  // 2 numbers → page size 12; 15 documents each, several on the same @timestamp across page borders
  for (let i = 0; i < 15; i++) {
    indexes.add('api_publica_trf4', fakeDoc(a, `G${i}`, 1_000 + Math.floor(i / 4), 'TRF4'), fakeDoc(b, `G${i}`, 1_000 + Math.floor(i / 4), 'TRF4'));
  }
  const { fake, c } = await setup(t, indexes.handler, { batchSize: 2 });
  const found = await c.fetchCases([a, b]);
  assert.equal(found.get(a)?.instancias.length, 15);
  assert.equal(found.get(b)?.instancias.length, 15);
  assert.equal(found.get(a)?.raw.length, 15, 'documents repeated by the overlap count once');
  const cursors = fake.requests.map((r) => r.body.search_after);
  assert.equal(cursors[0], undefined);
  assert.ok(fake.requests.length >= 3);
  assert.deepEqual(cursors[1], [1_000 + 1 - 1], 'the second page restarts one millisecond before the last sort value');
});

test('a page where every hit shares one millisecond falls back to the strict cursor and still ends', async (t) => {
  const indexes = new FakeIndexes();
  const a = cnjNumber(1, '4', '04');
  for (let i = 0; i < 20; i++) indexes.add('api_publica_trf4', fakeDoc(a, `G${i}`, 5_000, 'TRF4'));
  const { fake, c } = await setup(t, indexes.handler, { batchSize: 1 });
  const found = await c.fetchCases([a]);
  assert.equal(found.get(a)?.instancias.length, 6, 'ES cannot page past a tie without a tie-breaker: the documents of the first page');
  assert.deepEqual(
    fake.requests.map((r) => r.body.search_after),
    [undefined, [4_999], [5_000]],
  );
});

test('scanUpdatedSince yields pages of documents updated since the date, each document once', async (t) => {
  const indexes = new FakeIndexes();
  for (let i = 0; i < 25; i++) {
    const updated = i < 5 ? '2025-12-01T00:00:00.000Z' : '2026-02-01T00:00:00.000Z';
    indexes.add('api_publica_tjsp', fakeDoc(cnjNumber(i + 1, '8', '26'), 'G1', 10_000 + Math.floor(i / 3), 'TJSP', updated));
  }
  const { fake, c } = await setup(t, indexes.handler);
  const pages: string[][] = [];
  for await (const page of c.scanUpdatedSince('api_publica_tjsp', '2026-01-01T00:00:00Z', 7)) pages.push(page.map((r) => r.numeroCnj));
  const seen = pages.flat();
  assert.equal(seen.length, 20);
  assert.equal(new Set(seen).size, 20, 'no document twice despite the overlapping cursor');
  assert.deepEqual(fake.requests[0].body.query, { bool: { filter: [{ range: { dataHoraUltimaAtualizacao: { gte: '2026-01-01T00:00:00.000Z' } } }] } });
  assert.ok(fake.requests.every((r) => r.body.size === 7));
  await assert.rejects(async () => {
    for await (const _ of c.scanUpdatedSince('api_publica_tjsp', 'yesterday')) void _;
  }, RangeError);
});

test('scanUpdatedSince dedupes a document re-indexed during the scan (seen again with a later @timestamp)', async (t) => {
  const docs = [1, 2, 3].map((i) => fakeDoc(cnjNumber(i, '8', '26'), 'G1', 100 + i, 'TJSP'));
  const handler: Handler = (req) => {
    const after = req.body.search_after?.[0] ?? 0;
    const page = after < 102 ? docs.slice(0, 2) : [docs[2], { ...docs[0], ts: 200 }];
    const hits = page.map((d) => ({ _index: req.alias, _id: d._id, _source: d._source, sort: [d.ts] }));
    return { json: esResponse(after >= 199 ? [] : hits) };
  };
  const { c } = await setup(t, handler);
  const seen: string[] = [];
  for await (const page of c.scanUpdatedSince('api_publica_tjsp', '2020-01-01', 2)) seen.push(...page.map((r) => r.numeroCnj));
  assert.deepEqual(
    seen,
    docs.map((d) => d._source.numeroProcesso),
  );
});

test('503 twice then success: retried with backoff, each attempt spending budget', async (t) => {
  const indexes = new FakeIndexes();
  const [numero] = populate(indexes, 'api_publica_trf4', 'TRF4', '4', '04', 1);
  let calls = 0;
  const sleep = recordingSleep();
  const budget = new RequestBudget({ perMinute: 1_000 });
  const { fake, c } = await setup(t, (req) => (++calls <= 2 ? { status: 503, text: 'busy' } : indexes.handler(req)), {
    sleep,
    budget,
    retry: { baseMs: 100, capMs: 1_000 },
  });
  const found = await c.fetchCases([numero]);
  assert.ok(found.has(numero));
  assert.equal(fake.requests.length, 3);
  assert.equal(budget.granted, 3);
  assert.deepEqual(c.stats(), { requests: 3, retries: 2, failures: 0 });
  assert.deepEqual(sleep.delays, [75, 150], 'jittered exponential backoff (random = 0.5)');
});

test('503 on every attempt: unavailable after 3 attempts, never "not found"', async (t) => {
  const { fake, c } = await setup(t, () => ({ status: 503, text: '' }));
  await assert.rejects(c.fetchCases([cnjNumber(1, '4', '04')]), isFailure('unavailable'));
  await assert.rejects(c.fetchCase(cnjNumber(2, '4', '04')), isFailure('unavailable'));
  assert.equal(fake.requests.length, 6);
  assert.deepEqual(c.stats(), { requests: 6, retries: 4, failures: 2 });
});

test('429 with Retry-After: the wait honours it; a Retry-After beyond maxRetryAfterMs is handed back at once', async (t) => {
  let calls = 0;
  const sleep = recordingSleep();
  const { fake, c } = await setup(t, () => (++calls === 1 ? { status: 429, headers: { 'retry-after': '2' }, text: '' } : { json: esResponse([]) }), { sleep });
  assert.equal((await c.fetchCases([cnjNumber(1, '4', '04')])).size, 0);
  assert.deepEqual(sleep.delays, [2_000]);
  assert.equal(fake.requests.length, 2);
  const slow = await setup(t, () => ({ status: 429, headers: { 'retry-after': '600' }, text: '' }));
  await assert.rejects(
    slow.c.fetchCases([cnjNumber(1, '4', '04')]),
    (err: unknown) => isFailure('rate_limited')(err) && (err as RetryableSourceError).retryAfterMs === 600_000,
  );
  assert.equal(slow.fake.requests.length, 1);
});

test('timeouts, malformed bodies and a refused key fail with their kind', async (t) => {
  const slow = await setup(t, () => ({ delayMs: 2_000, json: esResponse([]) }), { timeoutMs: 100, retry: { attempts: 2, baseMs: 1, capMs: 1 } });
  await assert.rejects(slow.c.fetchCases([cnjNumber(1, '4', '04')]), isFailure('timeout'));
  assert.equal(slow.fake.requests.length, 2);
  const garbled = await setup(t, () => ({ text: '<html>gateway</html>' }));
  await assert.rejects(garbled.c.fetchCases([cnjNumber(1, '4', '04')]), isFailure('malformed'));
  assert.equal(garbled.fake.requests.length, 3, 'malformed is retried');
  const refused = await setup(t, () => ({ status: 401, json: { error: 'unauthorized' } }));
  await assert.rejects(refused.c.fetchCases([cnjNumber(1, '4', '04')]), isFailure('unauthorized'));
  assert.equal(refused.fake.requests.length, 1, 'a refused key is not retried');
});

test('partial shard failures with numbers missing are retried, then unavailable; with nothing missing they are accepted', async (t) => {
  const indexes = new FakeIndexes();
  const [present, , other] = populate(indexes, 'api_publica_trf4', 'TRF4', '4', '04', 3);
  const partial =
    (failed: number): Handler =>
    (req) => {
      const reply = indexes.handler(req) as { json: any };
      reply.json._shards.failed = failed;
      return reply;
    };
  const always = await setup(t, partial(1));
  await assert.rejects(always.c.fetchCases([present, cnjNumber(2, '4', '04')]), isFailure('unavailable'));
  assert.equal(always.fake.requests.length, 3);
  assert.equal(always.c.stats().failures, 1);
  assert.equal((await always.c.fetchCases([present, other])).size, 2, 'partial but complete: accepted');

  let calls = 0;
  const once = await setup(t, (req) => partial(++calls === 1 ? 2 : 0)(req));
  const found = await once.c.fetchCases([present, cnjNumber(2, '4', '04')]);
  assert.equal(found.size, 1, 'after a complete answer the missing number is really absent');
  assert.equal(once.fake.requests.length, 2);

  const scan = await setup(t, partial(1));
  await assert.rejects(async () => {
    for await (const _ of scan.c.scanUpdatedSince('api_publica_trf4', '2020-01-01T00:00:00Z')) void _;
  }, isFailure('unavailable'));
});

test('the connector never sends more than requestsPerMinute in a rolling minute (manual clock)', async (t) => {
  const clock = new ManualClock();
  const grants: number[] = [];
  const budget = new RequestBudget({ perMinute: 3, clock, sleep: clockSleep(clock), onGrant: (at) => grants.push(at) });
  const { fake, c } = await setup(t, () => ({ json: esResponse([]) }), { budget });
  const tjs = COURTS.filter((court) => court.segmento === 'Estadual').slice(0, 8);
  await c.fetchCases(tjs.map((court) => cnjNumber(1, court.j, court.tr)));
  assert.equal(fake.requests.length, 8);
  assert.equal(grants.length, 8);
  assert.ok(grants[7] - grants[0] >= 120_000, 'eight requests at three a minute span two minutes');
  for (let i = 0; i + 3 < grants.length; i++) assert.ok(grants[i + 3] - grants[i] >= 60_000, `requests ${i} and ${i + 3}`);
});

test('abort and close: a caller can give up; close rejects gathering lookups and refuses new calls', async (t) => {
  const { fake, c } = await setup(t, () => ({ delayMs: 1_000, json: esResponse([]) }), { coalesceWindowMs: 50 });
  await assert.rejects(c.fetchCases([cnjNumber(1, '4', '04')], AbortSignal.abort(new Error('no thanks'))), /no thanks/);
  const ctl = new AbortController();
  const leaving = c.fetchCase(cnjNumber(2, '4', '04'), ctl.signal);
  const staying = c.fetchCase(cnjNumber(3, '4', '04'));
  ctl.abort(new Error('left'));
  await assert.rejects(leaving, /left/);
  const closing = c.close();
  await assert.rejects(staying, isFailure('unavailable'));
  await closing;
  await assert.rejects(c.fetchCases([cnjNumber(1, '4', '04')]), isFailure('unavailable'));
  assert.equal(fake.requests.length, 0);
});

test('no retry runs inside another: shards that keep failing behind 503s cost the schedule’s attempts, not its square', async (t) => {
  const indexes = new FakeIndexes();
  const [present] = populate(indexes, 'api_publica_trf4', 'TRF4', '4', '04', 1);
  // Two 503s, then a page with a failed shard, again and again: nested loops would ask 3 × 3 times.
  const flaky = (): Handler => (req) => {
    if (++n % 3 !== 0) return { status: 503, text: '' };
    const reply = indexes.handler(req) as { json: any };
    reply.json._shards.failed = 1;
    return reply;
  };
  let n = 0;
  const lookup = await setup(t, flaky());
  await assert.rejects(lookup.c.fetchCases([present, cnjNumber(2, '4', '04')]), isFailure('unavailable'));
  assert.ok(lookup.fake.requests.length <= 3, `a lookup asked ${lookup.fake.requests.length} times for a schedule of 3 attempts`);
  assert.equal(lookup.c.stats().failures, 1);
  n = 0;
  const scan = await setup(t, flaky());
  await assert.rejects(async () => {
    for await (const _ of scan.c.scanUpdatedSince('api_publica_trf4', '2020-01-01T00:00:00Z')) void _;
  }, isFailure('unavailable'));
  // The alias is probed first ({"size":0}, one request on its own schedule), then the page's attempts.
  assert.ok(scan.fake.requests.length <= 1 + 3, `a scan asked ${scan.fake.requests.length} times`);
});
