/** What the operator relies on: health, readiness, metrics, secret-free logs, generated docs and OpenAPI in sync. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/config.ts';
import { GENERATED_DOCS } from '../scripts/generate-docs.ts';
import { createHarness, json } from './harness.ts';
import { testRoutes } from './routes.ts';

test('healthz, readyz and Prometheus metrics answer without a key', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  assert.equal(json(await h.inject({ method: 'GET', url: '/healthz' })).status, 'ok');
  const ready = await h.inject({ method: 'GET', url: '/readyz' });
  assert.equal(ready.statusCode, 200);
  assert.equal(json(ready).engine, h.services.database.engine);
  await h.inject({ method: 'GET', url: '/v1' });
  const metrics = await h.inject({ method: 'GET', url: '/metrics' });
  assert.match(String(metrics.headers['content-type']), /^text\/plain/);
  assert.match(metrics.body, /tramita_http_requests_total\{method="GET",route="\/v1",class="reference",status="200"\} 1/);
});

test('readyz says what it checked: database, migrations, jobs being claimed, and each configured source', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const body = json(await h.inject({ method: 'GET', url: '/readyz' }));
  assert.equal(body.status, 'ready');
  assert.equal(body.database, 'ok');
  assert.deepEqual(body.migrations, { pending: [] });
  assert.equal(body.jobs.estado, 'em_dia');
  const datajud = body.fontes.find((f: { nome: string }) => f.nome === 'DataJud');
  assert.equal(datajud.sandbox, true);
  assert.ok(['ok', 'desconhecido'].includes(datajud.estado));
  // A due job nobody claims for ten minutes: no worker is taking jobs. Readiness still holds (an API process stays useful).
  await h.services.jobs.enqueue({ kind: 'nobody.claims.this', payload: {}, runAt: new Date(h.services.clock.now().getTime() - 10 * 60_000) });
  const stalled = await h.inject({ method: 'GET', url: '/readyz' });
  assert.equal(stalled.statusCode, 200);
  assert.equal(json(stalled).jobs.estado, 'atrasados');
  assert.ok(json(stalled).jobs.atrasoSegundos >= 600);
});

test('every metric the Grafana dashboard and the Prometheus alerts use exists on /metrics', async (t) => {
  const h = await createHarness({ defaultMetrics: true });
  t.after(() => h.close());
  const exposed = new Set([...(await h.inject({ method: 'GET', url: '/metrics' })).body.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
  const used = new Set<string>();
  const dashboard = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'docs/ops/grafana-dashboard.json'), 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  const exprs = [
    ...dashboard.panels.flatMap((p) => p.targets.map((x) => x.expr)),
    ...[...fs.readFileSync(path.join(PROJECT_ROOT, 'docs/ops/prometheus-alerts.yml'), 'utf8').matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!),
  ];
  assert.ok(exprs.length >= 20, `${exprs.length} expressions read`);
  for (const expr of exprs) {
    for (const [name] of expr.matchAll(/\b(?:tramita|nodejs|process)_[a-z0-9_]+/g)) used.add(name.replace(/_(bucket|sum|count)$/, ''));
  }
  const missing = [...used].filter((n) => !exposed.has(n));
  assert.deepEqual(missing, [], `used by docs/ops but not on /metrics: ${missing.join(', ')}`);
  assert.ok(used.has('tramita_webhook_deliveries_total') && used.has('tramita_upstream_requests_total') && used.has('tramita_job_lag_seconds'));
});

test('readyz is 503 when the database is gone', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  await h.services.database.close();
  const res = await h.inject({ method: 'GET', url: '/readyz' });
  assert.equal(res.statusCode, 503);
});

test('logs never contain API keys, bearer tokens or the query string, whatever happens', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes, captureLogs: true });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 1000 });
  await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: a.headers });
  await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: { authorization: `Bearer ${a.key}` } });
  await h.inject({ method: 'GET', url: '/v1/test/charged?fail=internal', headers: a.headers });
  await h.inject({ method: 'GET', url: '/v1/conta/saldo?cpf_cnpj=12345678909', headers: a.headers });
  await h.inject({ method: 'POST', url: '/v1/test/orders', headers: { ...a.headers, 'content-type': 'application/json' }, payload: '{"nome":' });
  const logs = h.logs.join('');
  assert.ok(logs.includes('"request"'), 'requests are logged');
  assert.ok(logs.includes('operation failed'), 'the internal error is logged');
  assert.ok(!logs.includes(a.key), 'the API key never appears');
  assert.ok(!logs.includes(a.key.split('_')[2]), 'not even the secret part');
  assert.ok(!logs.includes('trm_0000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 'a key inside an exception message is scrubbed too');
  assert.ok(logs.includes('trm_[redacted]'));
  assert.ok(!logs.includes('12345678909'), 'no CPF from a query string');
});

test('docs generated from code are up to date (run `npm run docs` after changing errors, settings or routes)', async () => {
  for (const [file, render] of Object.entries(GENERATED_DOCS)) {
    assert.equal(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8'), await render(), `${file} is stale: npm run docs`);
  }
});

test('OpenAPI is 3.1, lists every registered route with its security, 202 and error responses, and the /docs page serves', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const doc = json(await h.inject({ method: 'GET', url: '/v1/openapi.json' }));
  assert.equal(doc.openapi, '3.1.0');
  for (const r of h.app.tramita.routes) {
    const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
    assert.ok(op, `${r.method} ${r.url} is documented`);
    assert.deepEqual(op.security, r.meta.auth ? [{ apiKey: [] }, { bearer: [] }] : []);
    if (r.meta.auth) assert.match(op.responses['401'].description, /MISSING_API_KEY/);
    if (r.meta.async) assert.ok(op.responses['202'], `${r.url} documents its 202`);
  }
  assert.equal(doc.paths['/healthz'], undefined, 'operational routes are not part of the contract');
  const page = await h.inject({ method: 'GET', url: '/docs/' });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /swagger/i);
});

test('GET /v1 lists the catalog generated from the registered routes, with auth mechanism and prices', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const body = json(await h.inject({ method: 'GET', url: '/v1' })).data;
  assert.equal(body.authentication.header, 'x-api-key');
  assert.equal(body.resources.length, h.app.tramita.routes.length);
  const charged = body.resources.find((r: any) => r.path === '/v1/test/charged');
  assert.deepEqual(
    { price: charged.price, queryType: charged.queryType, async: charged.async, routeClass: charged.routeClass },
    { price: 0.05, queryType: 'test.lookup', async: true, routeClass: 'lookup' },
  );
  assert.ok(body.resources.some((r: any) => r.path === '/v1/requests/{requestId}'));
});

test('an upstream failing: warn lines naming the source and the path without its query, the metrics move, and GET /v1 says falhando', async (t) => {
  const h = await createHarness({ captureLogs: true, env: { TRAMITA_DEV_TIME_SCALE: '1000' } });
  t.after(() => h.close());
  const sandbox = h.sources.sandbox!;
  const a = await h.createAccount({ credits: 10_000 });
  const cnj = sandbox.dataset.cases.find((c) => c.court.datajudAlias && c.filedAt <= sandbox.dataset.now())!.numero;
  const metric = async (series: string) => {
    const line = (await h.inject({ method: 'GET', url: '/metrics' })).body.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.split(' ')[1]) : 0;
  };
  const series = 'tramita_upstream_requests_total{source="datajud",outcome="server_error"}';
  const before = await metric(series);
  await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ upstream: 'datajud', status: 500, times: 50 }),
  });
  const from = h.logs.length;
  // Three lookups, one request each: no retry while the caller waits (issue 51), and falhando after three failures in a row.
  for (let i = 0; i < 3; i++) {
    const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${cnj}`, headers: a.headers });
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(json(res).error.code, 'SOURCE_UNAVAILABLE');
  }
  const failures = (await metric(series)) - before;
  assert.equal(failures, 3, 'one request per lookup');
  const lines = h.logs
    .slice(from)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'upstream datajud: server_error');
  assert.equal(lines.length, failures, 'one warn line per failed request');
  assert.ok(lines.every((l) => l.level === 40 && l.source === 'datajud' && l.status === 500 && !String(l.path).includes('?')));
  const catalog = json(await h.inject({ method: 'GET', url: '/v1' }));
  assert.equal(catalog.data.fontes.find((f: { nome: string }) => f.nome === 'DataJud').estado, 'falhando');
  assert.equal(catalog.data.fontes.find((f: { nome: string }) => f.nome === 'DataJud').saude, 'falhando');
  assert.equal(catalog.data.fontes.find((f: { nome: string }) => f.nome === 'DataJud').ultimaFalha.tipo, 'server_error');

  await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
  assert.equal((await h.inject({ method: 'GET', url: `/v1/processos/cnj/${cnj}`, headers: a.headers })).statusCode, 200);
  assert.equal(
    json(await h.inject({ method: 'GET', url: '/v1' })).data.fontes.find((f: { nome: string }) => f.nome === 'DataJud').estado,
    'ok',
    'one success and it is ok again',
  );
});
