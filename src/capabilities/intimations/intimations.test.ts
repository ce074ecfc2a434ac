/**
 * Intimações through HTTP (spec §4.5, flow 3 of §4.10): monitors by OAB (creation and its one charge
 * per OAB, reuse, validation, update, removal, tenancy, listing), the intimações of monitored OABs
 * (date range, pagination, charge per page), the match history, a publication's content, the events
 * and signed webhooks of new publications, the cycle's targeted DJEN queries, cadernos, renewals, and
 * the whole flow against the sandbox's DJEN simulator. A scripted source stands in for DJEN except in
 * the last test, so each test controls exactly what DJEN answers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { credit } from '../../platform/billing/ledger.ts';
import { ManualClock } from '../../platform/clock.ts';
import { brasiliaDay } from '../../platform/format.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { receiver, signature } from '../../../test/webhook-receiver.ts';
import { debitRows } from '../../../test/charges.ts';
import { createHarness, json, monitorTestEnv, type Harness, type TestAccount } from '../../../test/harness.ts';
import { testNow } from '../../../test/test-date.ts';
import { CycleBudget } from '../publications/cycle-budget.ts';
import { publicationRecord, ScriptedSource, scriptedPublications } from '../publications/testing.ts';

const INTERVAL_MS = 1000;
const ENV = monitorTestEnv(INTERVAL_MS, { TRAMITA_FEED_SETTLE_MS: '0' });
const PRICE_CENTAVOS = 100; // intimacoes.monitor_oab in config/prices.json (plan padrao)
const PAGE_PRICE_CENTAVOS = 5; // intimacoes.consulta
const PATH = '/v1/intimacoes/oab';
const DAY_MS = 86_400_000;

const clock = new ManualClock(testNow());
const h = await createHarness({ clock, env: ENV });
const { source, ingest } = scriptedPublications(h);
const db = h.services.db;

// ---- helpers ---------------------------------------------------------------------------------------

// DJEN's days are Brasília's (a publication of 23:30 on 31 December is of that year).
const today = () => brasiliaDay(clock.now().toISOString())!;
const daysAgo = (n: number) => brasiliaDay(new Date(clock.now().getTime() - n * DAY_MS).toISOString())!;
let nextOab = 200_000;
/** An OAB no other test uses. */
const freshOab = (uf = 'SP') => `${uf}${nextOab++}`;

function call(acc: TestAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return h.inject({ method, url, headers: acc.headers, ...(payload ? { payload } : {}) });
}

const create = (acc: TestAccount, body: object) => call(acc, 'POST', PATH, body);

const debits = (accountId: string) => debitRows(db, accountId);

async function monitorsOf(accountId: string) {
  return db.selectFrom('publication_monitors').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/** Moves time on and runs every due job (the cycles, deliveries) until none is due. */
async function cycle(ms = INTERVAL_MS): Promise<void> {
  clock.advance(ms);
  await h.runJobs();
}

/** Retires every publication monitor left by earlier tests, so a cycle asks only for the current test's. */
async function retireAll(): Promise<void> {
  await db
    .updateTable('publication_monitors')
    .set({ status: 'REMOVIDO', atualizado_em: clock.now().toISOString() })
    .where('status', '<>', 'REMOVIDO')
    .execute();
  source.queries.length = 0;
  source.cadernos.length = 0;
}

/** The account's webhook secret (shown whole on the first read only). */
async function secretOf(acc: TestAccount, harness: Harness = h): Promise<string> {
  const res = await harness.inject({ method: 'GET', url: '/v1/conta/webhook', headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data.segredo;
}

async function feed(acc: TestAccount, harness: Harness = h) {
  const res = await harness.inject({ method: 'GET', url: '/v1/eventos?limit=100', headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data.items as { id: string; event: string; data: any; monitor: { tipo: string; id: string } | null }[];
}

// ---- monitors: creation ----------------------------------------------------------------------------

test('POST creates one monitor per OAB, each charged once; creating an existing one again reuses it for free', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const first = await create(acc, { oab_estado: 'sp', oab_numero: 123456 });
  assert.equal(first.statusCode, 201, first.body);
  const body = json(first);
  const [m] = body.data.monitoramentos;
  assert.match(m.id, /^int_/);
  assert.deepEqual(
    [m.oab, m.oab_estado, m.oab_numero, m.tipo, m.origem, m.status, m.situacao, m.reused],
    [{ estado: 'SP', numero: '123456' }, 'SP', '123456', 'OAB', 'INTIMACOES', 'ACTIVE', 'ATIVO', false],
  );
  assert.deepEqual([m.estado, m.numero, m.termo, m.callbackEnabled], ['SP', '123456', 'OAB/SP 123456', false]);
  assert.deepEqual(body.data.billing, { billableOabs: 1, pricePerNewOab: 1, creditsCharged: 1 });
  assert.deepEqual(body.data.callback, { enabled: false, mode: null });
  assert.deepEqual([m.desde, m.evento, m.tribunais, m.webhookUrl, m.preco], [today(), 'diario_movimentacao_nova', null, null, 1]);
  assert.equal(m.proximaVerificacaoEm, clock.now().toISOString(), 'checked at the next cycle');
  assert.equal(m.proximaCobrancaEm, new Date(clock.now().getTime() + RENEWAL_PERIOD_MS).toISOString());
  assert.deepEqual(body.data.cobranca, { oabsCobradas: ['SP123456'], precoPorOab: 1, total: 1 });
  assert.deepEqual(body.data.reutilizados, []);
  assert.deepEqual([body.meta.creditsCharged, body.meta.creditsRemaining], [1, 9]);
  assert.ok(body.meta.searchLogId);

  const again = await create(acc, { oab: 'OAB/SP 123.456' });
  assert.equal(again.statusCode, 200, again.body);
  assert.equal(json(again).data.monitoramentos[0].id, m.id);
  assert.equal(json(again).data.monitoramentos[0].reused, true);
  assert.deepEqual(json(again).data.reutilizados, ['SP123456']);
  assert.deepEqual(json(again).data.cobranca, { oabsCobradas: [], precoPorOab: 1, total: 0 });
  assert.deepEqual(json(again).data.billing, { billableOabs: 0, pricePerNewOab: 1, creditsCharged: 0 });
  assert.equal(json(again).meta.creditsCharged, 0);

  const many = await create(acc, { oab: 'MG 55555', oabs: ['SP:123456', '98.765/RJ', 'rj:098765'] });
  assert.equal(many.statusCode, 201, many.body);
  const manyBody = json(many);
  assert.deepEqual(
    manyBody.data.monitoramentos.map((x: any) => [x.termo, x.reused]),
    [
      ['OAB/MG 55555', false],
      ['OAB/SP 123456', true],
      ['OAB/RJ 98765', false],
    ],
  );
  assert.deepEqual(manyBody.data.billing, { billableOabs: 2, pricePerNewOab: 1, creditsCharged: 2 });
  assert.deepEqual(manyBody.data.cobranca, { oabsCobradas: ['MG55555', 'RJ98765'], precoPorOab: 1, total: 2 });
  assert.deepEqual(manyBody.data.reutilizados, ['SP123456']);
  assert.deepEqual([manyBody.meta.creditsCharged, manyBody.meta.creditsRemaining], [2, 7]);

  const rows = await debits(acc.accountId);
  const monitors = await monitorsOf(acc.accountId);
  assert.equal(monitors.length, 3);
  assert.deepEqual(
    rows.map((r) => [r.query_type, r.delta_centavos]),
    Array(3).fill(['intimacoes.monitor_oab', -PRICE_CENTAVOS]),
  );
  assert.deepEqual(rows.map((r) => r.operation_id).sort(), monitors.map((x) => `${x.id}:1`).sort());
  // One answer, one search log: the two monitors of the last request share it.
  assert.equal(new Set(rows.map((r) => r.search_log_id)).size, 2);
});

test('a balance short of the total creates none of the monitors: all or nothing', async () => {
  const acc = await h.createAccount({ credits: PRICE_CENTAVOS + 50 });
  const res = await create(acc, { oabs: [freshOab(), freshOab()] });
  assert.equal(res.statusCode, 403, res.body);
  assert.equal(json(res).error.code, 'INSUFFICIENT_CREDITS');
  assert.equal((await monitorsOf(acc.accountId)).length, 0);
  assert.equal((await debits(acc.accountId)).length, 0);
  assert.equal((await create(acc, { oab: freshOab() })).statusCode, 201);
});

test(
  'bad requests: missing OAB 400 MISSING_PARAMETER, malformed 400 INVALID_OAB, unknown ' + 'court 422 UNKNOWN_COURT, bad webhook 400; none charged or stored',
  async () => {
    const acc = await h.createAccount({ credits: 1000 });
    const cases: [object, number, string, string?][] = [
      [{}, 400, 'MISSING_PARAMETER', 'oab'],
      [{ oab_estado: 'SP' }, 400, 'MISSING_PARAMETER', 'oab_numero'],
      [{ oab: 'XX123' }, 400, 'INVALID_OAB', 'oab'],
      [{ oab_estado: 'SP', oab_numero: '12345678' }, 400, 'INVALID_OAB', 'oab_numero'],
      [{ oabs: ['SP123456', 'SP:abc'] }, 400, 'INVALID_OAB', 'oabs.1'],
      [{ oab: 'SP123456', tribunais: ['TJSP', 'TJXX'] }, 422, 'UNKNOWN_COURT', 'tribunais.1'],
      [{ oab: 'SP123456', webhook_url: 'not a url' }, 400, 'INVALID_WEBHOOK_URL', 'webhook_url'],
      [{ oabs: Array.from({ length: 101 }, (_, i) => `SP${i + 1}`) }, 400, 'INVALID_PARAMETER'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await create(acc, body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`);
      assert.equal(json(res).error.code, code);
      if (field) assert.equal(json(res).error.details.field, field);
    }
    assert.equal((await monitorsOf(acc.accountId)).length, 0);
    assert.equal((await debits(acc.accountId)).length, 0);
  },
);

// ---- monitors: update, removal, listing --------------------------------------------------------------

test('PUT changes webhook_url and tribunais for free; DELETE removes (again: unchanged); PUT after DELETE is 422, unknown OABs 404', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const stranger = await h.createAccount({ credits: 1000 });
  const oab = freshOab();
  const created = json(await create(acc, { oab, tribunais: ['tjsp', 'TJSP'] })).data.monitoramentos[0];
  assert.deepEqual(created.tribunais, ['TJSP']);

  clock.advance(5);
  const put = await call(acc, 'PUT', PATH, { oab, webhook_url: 'https://example.com/hook', tribunais: ['TRF4', 'tjsp'] });
  assert.equal(put.statusCode, 200, put.body);
  const updated = json(put).data;
  assert.deepEqual([updated.id, updated.webhookUrl, updated.tribunais], [created.id, 'https://example.com/hook', ['TJSP', 'TRF4']]);
  assert.ok(updated.atualizadoEm > created.atualizadoEm, 'a filter change stamps atualizadoEm (the matcher rebuilds on it)');
  const cleared = json(await call(acc, 'PUT', PATH, { oab_estado: oab.slice(0, 2), oab_numero: oab.slice(2), webhook_url: null, tribunais: [] })).data;
  assert.deepEqual([cleared.webhookUrl, cleared.tribunais], [null, null]);

  const unknown = await call(acc, 'PUT', PATH, { oab: freshOab(), webhook_url: null });
  assert.equal(unknown.statusCode, 404, unknown.body);
  assert.equal(json(unknown).error.code, 'NOT_FOUND');
  const strangers = await call(stranger, 'DELETE', `${PATH}?oab=${oab}`);
  assert.equal(strangers.statusCode, 404, "another account's monitor is not found");

  clock.advance(5);
  const del = await call(acc, 'DELETE', `${PATH}?oab_estado=${oab.slice(0, 2)}&oab_numero=${oab.slice(2)}`);
  assert.equal(del.statusCode, 200, del.body);
  const removed = json(del).data;
  assert.deepEqual(
    [removed.id, removed.status, removed.situacao, removed.removidoEm, removed.proximaVerificacaoEm],
    [created.id, 'INACTIVE', 'REMOVIDO', clock.now().toISOString(), null],
  );
  const again = await call(acc, 'DELETE', `${PATH}?oab=${oab}`);
  assert.equal(again.statusCode, 200);
  assert.deepEqual(json(again).data, removed);
  const late = await call(acc, 'PUT', PATH, { oab, webhook_url: null });
  assert.equal(late.statusCode, 422, late.body);
  assert.equal(json(late).error.code, 'MONITOR_DEACTIVATED');
  assert.equal((await call(acc, 'DELETE', `${PATH}?oab=${freshOab()}`)).statusCode, 404);
  const missing = await call(acc, 'DELETE', PATH);
  assert.equal(json(missing).error.code, 'MISSING_PARAMETER');
  assert.equal((await debits(acc.accountId)).length, 1, 'updates and removals are free');

  // Created again after removal: a new monitor, charged.
  const recreated = await create(acc, { oab });
  assert.equal(recreated.statusCode, 201);
  assert.notEqual(json(recreated).data.monitoramentos[0].id, created.id);
});

test('GET /v1/intimacoes/oab: newest first, the cursor walks every monitor once; removed ones only with status=REMOVIDO', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(json(await create(acc, { oab: freshOab() })).data.monitoramentos[0].id);
    clock.advance(1);
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await call(acc, 'GET', `${PATH}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.statusCode, 200, res.body);
    seen.push(...json(res).data.items.map((m: { id: string }) => m.id));
    cursor = json(res).meta.pagination.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, [...ids].reverse());

  const oab = (await monitorsOf(acc.accountId)).find((m) => m.id === ids[0])!.valor;
  await call(acc, 'DELETE', `${PATH}?oab=${oab}`);
  assert.deepEqual(
    json(await call(acc, 'GET', PATH)).data.items.map((m: { id: string }) => m.id),
    ids.slice(1).reverse(),
  );
  assert.deepEqual(
    json(await call(acc, 'GET', `${PATH}?status=REMOVIDO`)).data.items.map((m: { id: string }) => m.id),
    [ids[0]],
  );
  const other = await h.createAccount();
  assert.deepEqual(json(await call(other, 'GET', PATH)).data.items, []);
});

// ---- reading intimações ----------------------------------------------------------------------------

test(
  'GET /v1/intimacoes: monitored OABs only (missingMonitorings), date range, tipo_comunicacao, ' + 'pagination charged per page, an empty page free',
  async () => {
    const acc = await h.createAccount({ credits: 1000 });
    const [a, b] = [freshOab(), freshOab('RJ')];
    await create(acc, { oab: a });
    const records = [0, 1, 2, 3, 4].map((n) => publicationRecord({ oabs: [a], dataDisponibilizacao: daysAgo(n) }));
    const edital = publicationRecord({ oabs: [a, b], dataDisponibilizacao: daysAgo(2), tipoComunicacao: 'Edital' });
    const onlyB = publicationRecord({ oabs: [b], dataDisponibilizacao: daysAgo(1) });
    await ingest([...records, edital, onlyB]);
    const debitsBefore = (await debits(acc.accountId)).length;

    const res = await call(acc, 'GET', `/v1/intimacoes?oab=${a}&oab=${b.slice(0, 2)}:${b.slice(2)}`);
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.deepEqual(body.meta.oabs, [a]);
    assert.deepEqual(body.meta.missingMonitorings, [b]);
    assert.equal(body.data.intimacoes.length, 6, 'the publications naming the monitored OAB, each once');
    assert.ok(!body.data.intimacoes.some((p: { id: string }) => p.id === onlyB.id));
    assert.deepEqual(
      body.data.intimacoes.map((p: any) => p.dataDisponibilizacao),
      [...body.data.intimacoes.map((p: any) => p.dataDisponibilizacao)].sort().reverse(),
      'newest first',
    );
    const item = body.data.intimacoes.find((p: { id: string }) => p.id === records[0].id);
    assert.deepEqual([item.intimacaoId, item.diarioId, item.tribunal], [records[0].id, records[0].id, 'TJSP']);
    assert.ok(!item.texto.includes('<p>'), 'plain text');
    assert.equal(item.link_api, `/v1/intimacoes/publicacoes/${records[0].id}`);
    assert.equal(body.meta.creditsCharged, PAGE_PRICE_CENTAVOS / 100);

    const range = json(await call(acc, 'GET', `/v1/intimacoes?oabs=${a}&data_inicio=${daysAgo(3)}&data_fim=${daysAgo(1)}`));
    assert.deepEqual(
      range.data.intimacoes.map((p: any) => p.dataDisponibilizacao),
      [daysAgo(1), daysAgo(2), daysAgo(2), daysAgo(3)],
    );
    const editais = json(await call(acc, 'GET', `/v1/intimacoes?oab=${a}&tipo_comunicacao=Edital`));
    assert.deepEqual(
      editais.data.intimacoes.map((p: { id: string }) => p.id),
      [edital.id],
    );

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = json(await call(acc, 'GET', `/v1/intimacoes?oab=${a}&limit=4${cursor ? `&cursor=${cursor}` : ''}`));
      seen.push(...page.data.intimacoes.map((p: { id: string }) => p.id));
      cursor = page.meta.pagination.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 2);
    assert.deepEqual(new Set(seen), new Set([...records, edital].map((r) => r.id)));
    assert.equal(seen.length, 6);

    const empty = json(await call(acc, 'GET', `/v1/intimacoes?oab=${a}&data_inicio=2020-01-01&data_fim=2020-01-31`));
    assert.deepEqual([empty.data.intimacoes, empty.meta.creditsCharged], [[], 0]);
    const rows = (await debits(acc.accountId)).slice(debitsBefore);
    assert.deepEqual(
      rows.map((r) => [r.query_type, r.delta_centavos]),
      Array(5).fill(['intimacoes.consulta', -PAGE_PRICE_CENTAVOS]),
      'one charge per non-empty page',
    );
  },
);

test('GET /v1/intimacoes: none monitored is 422 MONITOR_REQUIRED (uncharged); bad days and ranges 400', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const oab = freshOab();
  const required = await call(acc, 'GET', `/v1/intimacoes?oabs=${oab},RJ:1234`);
  assert.equal(required.statusCode, 422, required.body);
  assert.equal(json(required).error.code, 'MONITOR_REQUIRED');
  assert.deepEqual(json(required).error.details.missingMonitorings, [oab, 'RJ1234']);
  // Another account's monitor does not count.
  const owner = await h.createAccount({ credits: 1000 });
  await create(owner, { oab });
  assert.equal((await call(acc, 'GET', `/v1/intimacoes?oab=${oab}`)).statusCode, 422);
  await create(acc, { oab });
  for (const [q, field] of [
    ['data_inicio=2026-02-30', 'data_inicio'],
    ['data_inicio=2026-03-05&data_fim=2026-03-01', 'data_fim'],
    ['data_fim=10/03/2026', 'data_fim'],
  ]) {
    const res = await call(acc, 'GET', `/v1/intimacoes?oab=${oab}&${q}`);
    assert.equal(res.statusCode, 400, `${q}: ${res.body}`);
    assert.equal(json(res).error.details.field, field);
  }
  assert.equal((await call(acc, 'GET', '/v1/intimacoes')).statusCode, 400);
  assert.deepEqual(
    (await debits(acc.accountId)).map((r) => r.query_type),
    ['intimacoes.monitor_oab'],
  );
});

test('GET /v1/intimacoes/publicacoes/{diarioId}: the stored content with its three links; fetched from DJEN when not stored; unknown is 404', async () => {
  const acc = await h.createAccount();
  const stored = publicationRecord({ oabs: [freshOab()], texto: '<style>p{}</style><p>Fica a parte&nbsp;intimada.</p><p>Prazo de 15 dias.</p>' });
  await ingest([stored]);
  const res = await call(acc, 'GET', `/v1/intimacoes/publicacoes/${stored.id}`);
  assert.equal(res.statusCode, 200, res.body);
  const p = json(res).data;
  assert.equal(p.texto, 'Fica a parte intimada.\nPrazo de 15 dias.');
  assert.equal(p.link_publicacao_tribunal, stored.link);
  assert.equal(p.certidao, `https://comunicaapi.pje.jus.br/api/v1/comunicacao/${stored.hash}/certidao`);
  assert.equal(p.link_api, `/v1/intimacoes/publicacoes/${stored.id}`);
  assert.equal(p.diarioId, stored.id);
  assert.equal(json(res).meta.creditsCharged, undefined, 'free');

  const remote = publicationRecord({ oabs: [freshOab()] });
  source.records.push(remote);
  const fetched = await call(acc, 'GET', `/v1/intimacoes/publicacoes/${remote.id}`);
  assert.equal(fetched.statusCode, 200, fetched.body);
  assert.equal(json(fetched).data.id, remote.id);
  assert.ok(await db.selectFrom('publications').select('id').where('id', '=', remote.id).executeTakeFirst(), 'stored once fetched');

  for (const id of ['999999999999', 'not-a-djen-id']) {
    const missing = await call(acc, 'GET', `/v1/intimacoes/publicacoes/${id}`);
    assert.equal(missing.statusCode, 404, missing.body);
    assert.equal(json(missing).error.code, 'PUBLICATION_NOT_FOUND');
  }
});

test('a publication is cleaned to plain text once, at ingest (texto_limpo), its HTML kept; a row stored before that reads the same', async () => {
  const acc = await h.createAccount();
  const html = '<style>p{}</style><p>Fica a parte&nbsp;intimada.</p><br><table><tr><td>a</td> <td>b</td></tr></table>';
  const record = publicationRecord({ oabs: [freshOab()], texto: html });
  await ingest([record]);
  const where = (q: any) => q.where('id', '=', record.id);
  const row = await where(db.selectFrom('publications').select(['texto', 'texto_limpo'])).executeTakeFirstOrThrow();
  assert.equal(row.texto, html, 'the HTML as DJEN sent it');
  assert.equal(row.texto_limpo, 'Fica a parte intimada.\na b', 'the plain text, cleaned at ingest');
  const read = async () => json(await call(acc, 'GET', `/v1/intimacoes/publicacoes/${record.id}`)).data;
  assert.equal((await read()).texto, 'Fica a parte intimada.\na b');

  // A read shows the stored clean text, not a conversion of the HTML:
  await where(db.updateTable('publications').set({ texto_limpo: 'O TEXTO LIMPO GUARDADO' })).execute();
  assert.equal((await read()).texto, 'O TEXTO LIMPO GUARDADO');
  // and a row stored before migration 0022 (null) is converted on read, to the same text.
  await where(db.updateTable('publications').set({ texto_limpo: null })).execute();
  assert.equal((await read()).texto, 'Fica a parte intimada.\na b');
});

// ---- events, webhooks, history -----------------------------------------------------------------------

test('a new publication naming a monitored OAB: one diario_movimentacao_nova in the feed and a signed webhook; none again, none for history', async () => {
  const rx = await receiver();
  try {
    const acc = await h.createAccount({ credits: 1000 });
    const secret = await secretOf(acc);
    const oab = freshOab();
    const monitor = json(await create(acc, { oab, webhook_url: rx.url })).data.monitoramentos[0];
    assert.equal(monitor.webhookUrl, rx.url);
    const news = publicationRecord({ oabs: [oab], dataDisponibilizacao: today() });
    const old = publicationRecord({ oabs: [oab], dataDisponibilizacao: daysAgo(1) });
    const summary = await ingest([news, old]);
    assert.deepEqual([summary.correspondencias, summary.eventos], [2, 1]);
    await h.runJobs();

    assert.equal(rx.received.length, 1);
    const [delivery] = rx.received;
    assert.equal(delivery.headers['x-service-event'], 'diario_movimentacao_nova');
    assert.equal(delivery.headers['x-service-signature'], signature(secret, delivery.raw));
    assert.equal(delivery.body.event, 'diario_movimentacao_nova');
    assert.deepEqual([delivery.body.data.numeroCnjDigitos, delivery.body.data.tribunal], [news.numeroCnj, 'TJSP']);
    // The commercial service's gazette shape, which integrators' receivers extract (conventions §9.3).
    const movimentacao = delivery.body.data.movimentacao;
    assert.equal(movimentacao.numero_processo, formatCnj(news.numeroCnj!));
    assert.equal(movimentacao.processo.numero_novo, formatCnj(news.numeroCnj!));
    assert.equal(movimentacao.conteudo, news.texto, 'the text as the court published it');
    assert.equal(delivery.body.data.publicacao.id, news.id);
    assert.deepEqual(delivery.body.data.monitoramento, { id: monitor.id, origem: 'INTIMACOES', tipo: 'OAB', termo: oab });

    const events = await feed(acc);
    assert.deepEqual(
      events.map((e) => [e.event, e.monitor]),
      [['diario_movimentacao_nova', { tipo: 'intimacao_oab', id: monitor.id }]],
    );
    assert.equal(events[0].id, delivery.body.id);

    // The same publication again (another query, a caderno): no second event.
    const again = await ingest([news]);
    assert.deepEqual([again.novas, again.eventos], [0, 0]);
    await h.runJobs();
    assert.equal(rx.received.length, 1);
    assert.equal((await feed(acc)).length, 1);

    const history = json(await call(acc, 'GET', '/v1/intimacoes/historico'));
    assert.deepEqual(
      history.data.items.map((x: any) => [x.publicacao.id, x.notificado, x.monitoramentoId, x.oab]).sort(),
      [
        [news.id, true, monitor.id, oab],
        [old.id, false, monitor.id, oab],
      ].sort(),
    );
    const notified = history.data.items.find((x: any) => x.notificado);
    assert.deepEqual([notified.eventoId, notified.entrega?.status], [events[0].id, 'ENTREGUE']);
    assert.equal(history.data.items.find((x: any) => !x.notificado).entrega, null);
    const monitorNow = json(await call(acc, 'GET', PATH)).data.items.find((m: { id: string }) => m.id === monitor.id);
    assert.equal(monitorNow.publicacoes, 2);
  } finally {
    await rx.close();
  }
});

test('GET /v1/intimacoes/historico: newest first, filtered by OAB and day, cursor, free; another account sees none of it', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const [a, b] = [freshOab(), freshOab()];
  await create(acc, { oabs: [a, b] });
  await ingest([0, 1, 2].map((n) => publicationRecord({ oabs: [a], dataDisponibilizacao: daysAgo(n) })));
  clock.advance(10);
  await ingest([publicationRecord({ oabs: [b], dataDisponibilizacao: today() })]);
  const debitsBefore = (await debits(acc.accountId)).length;

  const all = json(await call(acc, 'GET', '/v1/intimacoes/historico'));
  assert.equal(all.data.items.length, 4);
  assert.equal(all.data.items[0].oab, b, 'newest match first');
  const onlyA = json(await call(acc, 'GET', `/v1/intimacoes/historico?oab=${a}&data_inicio=${daysAgo(1)}`));
  assert.deepEqual(onlyA.data.items.map((x: any) => x.publicacao.dataDisponibilizacao).sort(), [daysAgo(1), today()]);
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: any = json(await call(acc, 'GET', `/v1/intimacoes/historico?limit=3${cursor ? `&cursor=${cursor}` : ''}`));
    seen.push(...page.data.items.map((x: any) => x.publicacao.id));
    cursor = page.meta.pagination.nextCursor;
  } while (cursor);
  assert.deepEqual(
    seen,
    all.data.items.map((x: any) => x.publicacao.id),
  );
  assert.equal((await debits(acc.accountId)).length, debitsBefore, 'free');
  const stranger = await h.createAccount();
  assert.deepEqual(json(await call(stranger, 'GET', '/v1/intimacoes/historico')).data.items, []);
});

// ---- the cycle ---------------------------------------------------------------------------------------

test(
  'the cycle: one DJEN query per distinct OAB (however many accounts), with its one court; the recent history ' +
    'first, then from 3 days before the last check',
  async () => {
    await retireAll();
    const [acc1, acc2] = [await h.createAccount({ credits: 1000 }), await h.createAccount({ credits: 1000 })];
    const [shared, wide] = [freshOab(), freshOab()];
    await create(acc1, { oab: shared, tribunais: ['TJSP'] });
    await create(acc2, { oab: shared, tribunais: ['TJSP'] });
    await create(acc2, { oab: wide, tribunais: ['TJSP', 'TRF4'] });
    const recent = publicationRecord({ oabs: [shared], dataDisponibilizacao: daysAgo(10) });
    const fresh = publicationRecord({ oabs: [shared], dataDisponibilizacao: today() });
    const tooOld = publicationRecord({ oabs: [shared], dataDisponibilizacao: daysAgo(40) });
    source.records.push(recent, fresh, tooOld);

    await cycle();
    const started = clock.now();
    const queries = [...source.queries].sort((x, y) => x.oab!.numero.localeCompare(y.oab!.numero));
    assert.deepEqual(
      queries.map((q) => q.oab!.numero),
      [shared.slice(2), wide.slice(2)].sort(),
      'one query per OAB',
    );
    const sharedQuery = queries.find((q) => q.oab!.numero === shared.slice(2))!;
    assert.deepEqual(
      [sharedQuery.tribunal, sharedQuery.desde, sharedQuery.ate],
      ['TJSP', brasiliaDay(new Date(started.getTime() - 30 * DAY_MS).toISOString()), today()],
    );
    assert.equal(queries.find((q) => q.oab!.numero === wide.slice(2))!.tribunal, undefined, 'two courts: no court filter');

    // The history is readable at once; only today's publication was news.
    const listed = json(await call(acc1, 'GET', `/v1/intimacoes?oab=${shared}`)).data.intimacoes.map((p: { id: string }) => p.id);
    assert.deepEqual(listed, [fresh.id, recent.id]);
    for (const acc of [acc1, acc2]) {
      assert.deepEqual(
        (await feed(acc)).map((e) => [e.event, e.data.publicacao.id]),
        [['diario_movimentacao_nova', fresh.id]],
      );
    }
    const m = json(await call(acc1, 'GET', PATH)).data.items[0];
    assert.deepEqual(
      [m.ultimaVerificacaoEm, m.proximaVerificacaoEm, m.ultimoErro],
      [started.toISOString(), new Date(started.getTime() + INTERVAL_MS).toISOString(), null],
    );

    source.queries.length = 0;
    await cycle();
    assert.equal(source.queries.length, 2);
    assert.ok(
      source.queries.every((q) => q.desde === brasiliaDay(new Date(started.getTime() - 3 * DAY_MS).toISOString())),
      'from 3 days before the previous check',
    );
    assert.equal((await feed(acc1)).length, 1, 'nothing new, no event');
  },
);

test('the cycle: a failed query leaves its monitors due with ultimoErro; a geoblock ends the run early', async () => {
  await retireAll();
  const acc = await h.createAccount({ credits: 1000 });
  const [a, b] = [freshOab(), freshOab()];
  await create(acc, { oabs: [a, b] });
  source.fail = (q) => (q.oab?.numero === a.slice(2) ? new SourceError('DJEN', 'unavailable', 'DJEN answered 503') : null);
  try {
    await cycle();
  } finally {
    source.fail = () => null;
  }
  const byOab = async () => new Map((await monitorsOf(acc.accountId)).map((m) => [m.valor, m]));
  let rows = await byOab();
  assert.match(rows.get(a)!.ultimo_erro!, /failed \(unavailable\)/);
  assert.equal(rows.get(a)!.ultima_verificacao_em, null);
  assert.ok(rows.get(a)!.proxima_verificacao_em <= clock.now().toISOString(), 'still due');
  assert.equal(rows.get(b)!.ultimo_erro, null);
  assert.equal(rows.get(b)!.ultima_verificacao_em, clock.now().toISOString());

  await cycle();
  rows = await byOab();
  assert.deepEqual([rows.get(a)!.ultimo_erro, rows.get(a)!.ultima_verificacao_em], [null, clock.now().toISOString()]);

  // Both due again; DJEN refuses this country: the first query fails and the run stops there.
  source.queries.length = 0;
  source.fail = () => new SourceError('DJEN', 'geoblocked', 'DJEN answers only from Brazil');
  try {
    await cycle();
  } finally {
    source.fail = () => null;
  }
  assert.equal(source.queries.length, 1, 'no further query after a geoblock');
  rows = await byOab();
  const failed = [...rows.values()].filter((m) => m.ultimo_erro);
  assert.equal(failed.length, 1);
  assert.match(failed[0].ultimo_erro!, /only from Brazil/);
});

test('CycleBudget: at most `max` queries; a geoblock or a rate limit stops the run, other failures do not', () => {
  const budget = new CycleBudget(2);
  assert.deepEqual([budget.take(), budget.take(), budget.take()], [true, true, false]);
  const other = new CycleBudget(10);
  other.noteFailure(new SourceError('DJEN', 'unavailable', 'x'));
  assert.equal(other.take(), true);
  other.noteFailure(new SourceError('DJEN', 'rate_limited', 'x'));
  assert.deepEqual([other.take(), other.stoppedBy], [false, 'rate_limited']);
});

test('renewal: every 30 days one more debit per OAB; a balance that no longer covers it suspends the monitor until it is created again', async () => {
  await retireAll();
  const rich = await h.createAccount({ credits: 1000 });
  const poor = await h.createAccount({ credits: PRICE_CENTAVOS });
  const [richOab, poorOab] = [freshOab(), freshOab()];
  const richId = json(await create(rich, { oab: richOab })).data.monitoramentos[0].id;
  const poorId = json(await create(poor, { oab: poorOab })).data.monitoramentos[0].id;
  await cycle();

  await cycle(RENEWAL_PERIOD_MS);
  assert.deepEqual(
    (await debits(rich.accountId)).map((r) => [r.operation_id, r.query_type]),
    [
      [`${richId}:1`, 'intimacoes.monitor_oab'],
      [`${richId}:2`, 'intimacoes.monitor_oab'],
    ],
  );
  const [suspended] = await monitorsOf(poor.accountId);
  assert.equal(suspended.status, 'SUSPENSO');
  assert.match(suspended.ultimo_erro!, /did not cover the renewal/);
  source.queries.length = 0;
  await cycle();
  assert.ok(!source.queries.some((q) => q.oab?.numero === poorOab.slice(2)), 'a suspended monitor is not checked');
  assert.equal((await debits(poor.accountId)).length, 1);

  await credit(db, h.services.clock, poor.accountId, PRICE_CENTAVOS, 'test top-up');
  const back = await create(poor, { oab: poorOab });
  assert.equal(back.statusCode, 201, back.body);
  const revived = json(back).data.monitoramentos[0];
  assert.deepEqual([revived.id, revived.status, revived.situacao, revived.reused, revived.desde], [poorId, 'ACTIVE', 'ATIVO', false, today()]);
  assert.deepEqual(
    (await debits(poor.accountId)).map((r) => r.operation_id),
    [`${poorId}:1`, `${poorId}:2`],
  );
  source.queries.length = 0;
  await cycle();
  const asked = source.queries.find((q) => q.oab?.numero === poorOab.slice(2));
  assert.equal(asked?.desde, daysAgo(30), 'checked again, the recent window first');
});

// ---- cadernos ---------------------------------------------------------------------------------------

test(
  "cadernos (TRAMITA_DJEN_CADERNOS): yesterday's and today's ingested once final; a monitor " + 'of covered courts needs no query after its first check',
  async (t) => {
    const c2 = new ManualClock(testNow());
    const h2 = await createHarness({ clock: c2, env: { ...ENV, TRAMITA_DJEN_CADERNOS: 'TJSP' } });
    const scripted = new ScriptedSource();
    const real = h2.sources.publications;
    h2.sources.publications = scripted;
    t.after(async () => {
      h2.sources.publications = real;
      await h2.close();
    });
    // DJEN's days are Brasília's: "today" is the day in Brasília when the cycle runs (one INTERVAL_MS on).
    const today = brasiliaDay(new Date(c2.now().getTime() + INTERVAL_MS).toISOString())!;
    const yesterday = brasiliaDay(new Date(Date.parse(`${today}T12:00:00Z`) - DAY_MS).toISOString())!;
    scripted.cadernoStatus = (_tribunal, data) => (data === yesterday ? 'Processado' : 'Não Processado');
    const acc = await h2.createAccount({ credits: 1000 });
    const [covered, everywhere] = [freshOab(), freshOab()];
    const post = (body: object) => h2.inject({ method: 'POST', url: PATH, headers: acc.headers, payload: body });
    assert.equal((await post({ oab: covered, tribunais: ['TJSP'] })).statusCode, 201);
    assert.equal((await post({ oab: everywhere })).statusCode, 201);
    const inCaderno = publicationRecord({ oabs: [covered], dataDisponibilizacao: yesterday });
    scripted.records.push(inCaderno);
    const run = async () => {
      c2.advance(INTERVAL_MS);
      await h2.runJobs();
    };

    await run();
    assert.deepEqual(
      scripted.cadernos.map((c) => `${c.tribunal}:${c.data}`),
      [`TJSP:${yesterday}`, `TJSP:${today}`],
    );
    assert.ok(await h2.services.db.selectFrom('publication_syncs').select('chave').where('chave', '=', `caderno:TJSP:${yesterday}:D`).executeTakeFirst());
    assert.ok(await h2.services.db.selectFrom('publications').select('id').where('id', '=', inCaderno.id).executeTakeFirst(), 'the caderno was ingested');
    assert.equal(scripted.queries.length, 2, 'first checks always ask (the recent history)');

    scripted.queries.length = 0;
    scripted.cadernos.length = 0;
    await run();
    assert.deepEqual(
      scripted.cadernos.map((c) => c.data),
      [today],
      'a final caderno is not asked again; a pending one is',
    );
    assert.deepEqual(
      scripted.queries.map((q) => q.oab!.numero),
      [everywhere.slice(2)],
      'the TJSP-only monitor is covered by the caderno',
    );
    const rows = await h2.services.db
      .selectFrom('publication_monitors')
      .select(['valor', 'ultima_verificacao_em'])
      .where('account_id', '=', acc.accountId)
      .execute();
    assert.ok(
      rows.every((r) => r.ultima_verificacao_em === c2.now().toISOString()),
      'both marked checked',
    );
  },
);

// ---- end to end, against the sandbox's DJEN simulator --------------------------------------------------

test(
  'end to end with the simulator: POST /v1/intimacoes/oab, DJEN publishes naming the OAB in a dotted spelling, the ' +
    'cycle brings it, the webhook arrives signed',
  async (t) => {
    const c3 = new ManualClock(testNow());
    const h3 = await createHarness({ clock: c3, env: ENV });
    const rx = await receiver();
    t.after(async () => {
      await rx.close();
      await h3.close();
    });
    const sandbox = h3.sources.sandbox!;
    const acc = await h3.createAccount({ credits: 1000 });
    const secret = await secretOf(acc, h3);
    // Seven digits: no generated sandbox lawyer has such a number, so only the published communication names it.
    const res = await h3.inject({ method: 'POST', url: PATH, headers: acc.headers, payload: { oab: 'OAB/PR 7.654.321', webhook_url: rx.url } });
    assert.equal(res.statusCode, 201, res.body);
    const monitorId = json(res).data.monitoramentos[0].id;
    c3.advance(INTERVAL_MS);
    await h3.runJobs();
    assert.equal(rx.received.length, 0, 'nothing published yet');

    // Abroad, DJEN answers 403: the check records why and stays due (never "no publications").
    sandbox.faults.set({ upstream: 'djen', status: 403, times: 100 });
    try {
      c3.advance(INTERVAL_MS);
      await h3.runJobs();
    } finally {
      sandbox.faults.reset();
    }
    const blocked = json(await h3.inject({ method: 'GET', url: PATH, headers: acc.headers })).data.items[0];
    assert.match(blocked.ultimoErro, /geoblocked|Brazil/);

    const item = sandbox.djen.publish({
      numeroProcesso: sandbox.dataset.cases[0].numero,
      advogados: [{ nome: 'Maria Advogada', uf: 'PR', numero: '7654321', spelling: 'dotted' }],
      texto: 'Intime-se a parte autora.',
    });
    c3.advance(INTERVAL_MS);
    await h3.runJobs();

    assert.equal(json(await h3.inject({ method: 'GET', url: PATH, headers: acc.headers })).data.items[0].ultimoErro, null);
    assert.equal(rx.received.length, 1, 'one delivery');
    const [delivery] = rx.received;
    assert.equal(delivery.headers['x-service-event'], 'diario_movimentacao_nova');
    assert.equal(delivery.headers['x-service-signature'], signature(secret, delivery.raw));
    assert.equal(delivery.body.data.publicacao.id, String(item.id));
    assert.deepEqual(
      delivery.body.data.publicacao.advogados.map((a: { oab: string }) => a.oab),
      ['PR7654321'],
    );
    assert.equal(delivery.body.data.monitoramento.id, monitorId);

    const listed = json(await h3.inject({ method: 'GET', url: '/v1/intimacoes?oab_estado=PR&oab_numero=7654321', headers: acc.headers }));
    assert.ok(listed.data.intimacoes.some((p: { id: string }) => p.id === String(item.id)));
    const content = json(await h3.inject({ method: 'GET', url: `/v1/intimacoes/publicacoes/${item.id}`, headers: acc.headers })).data;
    assert.match(content.certidao, new RegExp(`/api/v1/comunicacao/${item.hash}/certidao$`));
    c3.advance(INTERVAL_MS);
    await h3.runJobs();
    assert.equal(rx.received.length, 1, 'not sent twice');
  },
);
