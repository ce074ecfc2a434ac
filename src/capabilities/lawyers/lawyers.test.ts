/**
 * Lawyer endpoints (spec §4.4) and the gazettes of a case (§4.2) through HTTP, against the sandbox's
 * DJEN simulator: processes and publications by OAB in every spelling, the summary moving from
 * partial to complete once the history is consolidated, the asynchronous OAB search ending in SUCESSO
 * with its processes (charged once) or ERRO (free), its callback, bad input, tenancy and DJEN failures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { chargeRecords } from '../../../test/charges.ts';

// No feed settling window: on PostgreSQL it would hide the callback's fresh event (webhooks.test.ts covers the window).
const ENV = {
  TRAMITA_RATE_LIMITS: 'search=100000/60s,lookup=100000/60s,async=100000/60s,account=100000/60s',
  TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
  TRAMITA_FEED_SETTLE_MS: '0',
};
const h = await createHarness({ env: ENV, captureLogs: true });
test.after(() => h.close());
const sandbox = h.sources.sandbox!;
const example = sandbox.djen.examples().oab!;
const OAB_QS = `oab_estado=${example.uf}&oab_numero=${example.numero}`;

async function ledgerRows(acc: TestAccount, queryType: string): Promise<number> {
  const rows = await h.services.db.selectFrom('ledger').select('id').where('account_id', '=', acc.accountId).where('query_type', '=', queryType).execute();
  return rows.length;
}

test('the sandbox example OAB has communications in more than one spelling', () => {
  assert.ok(example, 'the simulator offers an example OAB');
  assert.ok(example.spellings.plain > 0 && example.spellings.dotted > 0, JSON.stringify(example.spellings));
});

test('GET /v1/advogados/diarios-oficiais lists every publication of the OAB, whatever the spelling, newest first, charged per page', async () => {
  const acc = await h.createAccount({ credits: 100 });
  const r = await h.inject({ method: 'GET', url: `/v1/advogados/diarios-oficiais?${OAB_QS}&limit=100`, headers: acc.headers });
  assert.equal(r.statusCode, 200, r.body);
  const body = json(r);
  const canonical = `${example.uf}${example.numero}`;
  assert.ok(body.data.items.length > 0);
  for (const p of body.data.items)
    assert.ok(
      p.advogados.some((a: { oab: string }) => a.oab === canonical),
      'each names the OAB',
    );
  const dates = body.data.items.map((p: { dataDisponibilizacao: string }) => p.dataDisponibilizacao);
  assert.deepEqual(dates, [...dates].sort().reverse());
  assert.equal(body.meta.creditsCharged, 0.2);
  assert.equal(await ledgerRows(acc, 'advogados.diarios_oficiais'), 1);
  const p = body.data.items[0];
  assert.equal(typeof p.texto, 'string');
  assert.ok(!/<[a-z]/i.test(p.texto), 'plain text');
  assert.match(p.link_api, /^\/v1\/intimacoes\/publicacoes\//);
  if (p.certidao) assert.match(p.certidao, /\/certidao$/);
});

test('the summary is partial until the history is consolidated, then complete; each call is charged', async () => {
  const acc = await h.createAccount({ credits: 100 });
  const url = `/v1/advogados/resumo?oab=${example.numero}/${example.uf}`;
  const first = json(await h.inject({ method: 'GET', url, headers: acc.headers }));
  assert.equal(first.data.cobertura.parcial, true);
  assert.equal(first.data.cobertura.completa, false);
  assert.ok(first.data.quantidadeProcessos > 0);
  assert.equal(first.data.quantidadeProcessos, first.data.quantidadeRecentes + first.data.quantidadeHistoricos);
  assert.match(first.meta.cobranca, /new charged query/);
  await h.runJobs();
  const second = json(await h.inject({ method: 'GET', url, headers: acc.headers }));
  assert.equal(second.data.cobertura.completa, true);
  // The consolidation logged its progress (issue 19): windows read of the total, and publications.
  const progress = h.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'OAB history consolidation');
  assert.ok(progress.length > 0 && progress.at(-1).done === progress.at(-1).total && progress.at(-1).publicacoes > 0, JSON.stringify(progress.at(-1)));
  assert.equal(second.data.cobertura.parcial, false);
  assert.ok(second.data.quantidadeProcessos >= first.data.quantidadeProcessos);
  assert.ok(
    second.data.variantesNome.some((v: { nome: string }) => v.nome.toUpperCase() === example.nome.toUpperCase()),
    JSON.stringify(second.data.variantesNome),
  );
  assert.ok(second.data.coberturaOficial.tribunais.length > 0);
  assert.equal(await ledgerRows(acc, 'advogados.resumo'), 2);
});

test("GET /v1/advogados/processos lists the OAB's processes deduplicated by CNJ number", async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const r = json(await h.inject({ method: 'GET', url: `/v1/advogados/processos?${OAB_QS}&limit=100`, headers: acc.headers }));
  const numbers = r.data.processos.map((p: { numeroCnj: string }) => p.numeroCnj);
  assert.ok(numbers.length > 0);
  assert.equal(new Set(numbers).size, numbers.length);
  assert.equal(r.meta.pagination.total, numbers.length);
  // Page by page, by cursor and by number alike: the same processes in the same order.
  assert.ok(numbers.length >= 2, 'the example OAB has two processes or more');
  const walked: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.inject({ method: 'GET', url: `/v1/advogados/processos?${OAB_QS}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, headers: acc.headers });
    assert.equal(res.statusCode, 200, res.body);
    const page = json(res);
    walked.push(...page.data.processos.map((p: { numeroCnj: string }) => p.numeroCnj));
    cursor = page.meta.pagination.nextCursor;
  } while (cursor);
  assert.deepEqual(walked, numbers);
  const second = json(await h.inject({ method: 'GET', url: `/v1/advogados/processos?${OAB_QS}&limit=1&page=2`, headers: acc.headers }));
  assert.deepEqual(
    second.data.processos.map((p: { numeroCnj: string }) => p.numeroCnj),
    [numbers[1]],
  );
});

test('an OAB with no publication is an empty, free answer', async () => {
  const acc = await h.createAccount({ credits: 100 });
  const r = await h.inject({ method: 'GET', url: '/v1/advogados/processos?oab_estado=AC&oab_numero=9999999', headers: acc.headers });
  assert.equal(r.statusCode, 200, r.body);
  assert.deepEqual(json(r).data.processos, []);
  assert.equal(json(r).meta.creditsCharged, 0);
});

test('bad OABs are precise 400s', async () => {
  const acc = await h.createAccount({ credits: 100 });
  for (const [qs, code, field] of [
    ['oab_estado=SP', 'MISSING_PARAMETER', 'oab_numero'],
    ['oab_estado=XX&oab_numero=123', 'INVALID_OAB', 'oab_estado'],
    ['oab_estado=SP&oab_numero=12345678', 'INVALID_OAB', 'oab_numero'],
    ['oab=banana', 'INVALID_OAB', 'oab'],
    ['', 'MISSING_PARAMETER', 'oab_numero'],
  ] as const) {
    const r = await h.inject({ method: 'GET', url: `/v1/advogados/resumo?${qs}`, headers: acc.headers });
    assert.equal(r.statusCode, 400, `${qs}: ${r.body}`);
    assert.equal(json(r).error.code, code, qs);
    assert.equal(json(r).error.details.field, field, qs);
  }
});

test('the async OAB search ends in SUCESSO with its processes, charged once, with its callback', async () => {
  const acc = await h.createAccount({ credits: 100 });
  const receiver = await h.inject({ method: 'PUT', url: '/v1/conta/webhook', headers: acc.headers, payload: { url: 'http://127.0.0.1:9/hook' } });
  assert.equal(receiver.statusCode, 200, receiver.body);
  const court =
    (await h.services.db.selectFrom('publication_lawyers').select('tribunal').where('oab', '=', `${example.uf}${example.numero}`).executeTakeFirst())
      ?.tribunal ?? sandbox.djen.examples().caderno!.siglaTribunal;
  const created = await h.inject({
    method: 'POST',
    url: '/v1/advogados/oab/monitorar',
    headers: acc.headers,
    payload: { tribunal: court, oab_estado: example.uf, oab_numero: example.numero, enviar_callback: true },
  });
  assert.equal(created.statusCode, 202, created.body);
  const { id, statusUrl, status } = json(created).data;
  assert.equal(typeof id, 'number');
  assert.equal(status, 'PENDENTE');
  assert.equal(created.headers.location, statusUrl);
  await h.runJobs();
  const done = json(await h.inject({ method: 'GET', url: new URL(statusUrl).pathname, headers: acc.headers }));
  assert.equal(done.data.status, 'SUCESSO');
  assert.equal(done.data.resposta.length, 1);
  assert.ok(done.data.resposta[0].processos.length > 0);
  for (const p of done.data.resposta[0].processos) assert.equal(p.tribunal, court);
  assert.equal(await ledgerRows(acc, 'advogados.oab_monitorar'), 1);
  await h.runJobs();
  assert.equal(await ledgerRows(acc, 'advogados.oab_monitorar'), 1, 'never charged twice');
  // The job's charge records the request that started the search, under `oab-busca:<id>`.
  const [charge] = await chargeRecords(h.services.db, acc.accountId);
  assert.deepEqual(
    { ...charge, centavos: undefined },
    {
      queryType: 'advogados.oab_monitorar',
      operationId: `oab-busca:${id}`,
      centavos: undefined,
      requestId: created.headers['x-request-id'],
      method: 'POST',
      path: '/v1/advogados/oab/monitorar',
      statusCode: 200,
    },
  );
  const feed = json(await h.inject({ method: 'GET', url: '/v1/eventos', headers: acc.headers }));
  assert.ok(feed.data.items.some((e: { event: string; data: { id: number } }) => e.event === 'resultado_busca_oab_async' && e.data.id === id));
  const other = await h.createAccount({ credits: 100 });
  assert.equal((await h.inject({ method: 'GET', url: `/v1/advogados/oab/monitoramentos/${id}`, headers: other.headers })).statusCode, 404);
});

test('the async OAB search: bad court 422, callback (either flag) without webhook 422, DJEN down → ERRO and free', async () => {
  const acc = await h.createAccount({ credits: 100 });
  const post = (payload: Record<string, unknown>) => h.inject({ method: 'POST', url: '/v1/advogados/oab/monitorar', headers: acc.headers, payload });
  const bad = await post({ tribunal: 'TJXX', oab_estado: 'SP', oab_numero: '123' });
  assert.equal(bad.statusCode, 422);
  assert.equal(json(bad).error.code, 'UNKNOWN_COURT');
  // Either flag (spec §6: `enviar_callback` / `send_callback`), the one the caller sent named.
  for (const flag of ['enviar_callback', 'send_callback']) {
    const noHook = await post({ tribunal: 'TJSP', oab_estado: 'SP', oab_numero: '123', [flag]: true });
    assert.deepEqual([noHook.statusCode, json(noHook).error.code, json(noHook).error.details?.field], [422, 'WEBHOOK_NOT_CONFIGURED', flag]);
  }
  const missing = await post({ tribunal: 'TJSP', oab_estado: 'SP' });
  assert.equal(missing.statusCode, 400);
  sandbox.faults.set({ upstream: 'djen', status: 503 });
  try {
    const created = json(await post({ tribunal: 'TJSP', oab_estado: 'SP', oab_numero: '4242' }));
    for (let i = 0; i < 6; i++) {
      await h.runJobs();
      // The retries wait minutes: bring them forward.
      await h.services.db
        .updateTable('jobs')
        .set({ run_at: new Date(0).toISOString() })
        .where('kind', '=', 'advogados.oab.busca')
        .where('status', '=', 'pending')
        .execute();
    }
    const done = json(await h.inject({ method: 'GET', url: `/v1/advogados/oab/monitoramentos/${created.data.id}`, headers: acc.headers }));
    assert.equal(done.data.status, 'ERRO');
    assert.equal(done.data.erro.code, 'SOURCE_UNAVAILABLE');
    assert.equal(await ledgerRows(acc, 'advogados.oab_monitorar'), 0);
  } finally {
    sandbox.faults.reset();
  }
});

test('DJEN refusing this country is a clear SOURCE_UNAVAILABLE, never "no publications", and free', async () => {
  const acc = await h.createAccount({ credits: 100 });
  sandbox.faults.set({ upstream: 'djen', status: 403 });
  try {
    const r = await h.inject({ method: 'GET', url: '/v1/advogados/diarios-oficiais?oab=RJ777777', headers: acc.headers });
    assert.equal(r.statusCode, 503, r.body);
    assert.equal(json(r).error.code, 'SOURCE_UNAVAILABLE');
    assert.equal(json(r).error.details.failure, 'geoblocked');
    assert.match(json(r).error.message, /fora do Brasil/, 'Portuguese by default, and actionable');
    assert.match(json(r).error.detail, /Brazil/);
    assert.equal(await ledgerRows(acc, 'advogados.diarios_oficiais'), 0);
  } finally {
    sandbox.faults.reset();
  }
});

test("GET /v1/processos/numero/{numero}/diarios-oficiais lists the case's gazette publications", async () => {
  const acc = await h.createAccount({ credits: 100 });
  const numero = sandbox.djen.examples().numeroProcesso!;
  const r = await h.inject({ method: 'GET', url: `/v1/processos/numero/${numero}/diarios-oficiais`, headers: acc.headers });
  assert.equal(r.statusCode, 200, r.body);
  const body = json(r);
  assert.ok(body.data.items.length >= 1);
  for (const p of body.data.items) assert.equal(p.numeroCnj, numero.replace(/\D/g, ''));
  assert.equal(body.meta.creditsCharged, 0.1);
  const invalid = await h.inject({ method: 'GET', url: '/v1/processos/numero/123/diarios-oficiais', headers: acc.headers });
  assert.equal(json(invalid).error.code, 'INVALID_CNJ');
});
