/**
 * Judicial-publication monitors through HTTP (spec §4.8): creation by term, OAB or case number and its
 * one charge, reuse, validation, tenancy, listing, deactivation, the events each kind emits (with
 * court filters), the cycle's query per target, and reactivation after a suspension. A scripted source
 * stands in for DJEN.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { credit } from '../../platform/billing/ledger.ts';
import { ManualClock } from '../../platform/clock.ts';
import { brasiliaDayBefore } from '../../platform/format.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
import { debitRows } from '../../../test/charges.ts';
import { createHarness, json, monitorTestEnv, type TestAccount } from '../../../test/harness.ts';
import { testNow } from '../../../test/test-date.ts';
import { publicationRecord, scriptedPublications, tjspNumber } from '../publications/testing.ts';

const INTERVAL_MS = 1000;
const ENV = monitorTestEnv(INTERVAL_MS, { TRAMITA_FEED_SETTLE_MS: '0' });
const PRICE_CENTAVOS = 300; // monitor.publicacoes in config/prices.json (plan padrao)
const PATH = '/v1/monitoramentos/publicacoes';

const clock = new ManualClock(testNow());
const h = await createHarness({ clock, env: ENV });
const { source, ingest } = scriptedPublications(h);
const db = h.services.db;

// DJEN's days are Brasília's: 23:30 of 31 December publishes that year's day.
const today = () => brasiliaDayBefore(clock.now());
const create = (acc: TestAccount, body: object) => h.inject({ method: 'POST', url: PATH, headers: acc.headers, payload: body });
const get = (acc: TestAccount, url: string) => h.inject({ method: 'GET', url, headers: acc.headers });
const debits = (accountId: string) => debitRows(db, accountId);

async function heard(acc: TestAccount) {
  const res = await get(acc, '/v1/eventos?limit=100');
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data.items.map((e: any) => ({ event: e.event, monitor: e.monitor?.id, publicacao: e.data.publicacao.id }));
}

let nextTerm = 0;
const freshTerm = () => `Construtora Acentuação Exemplar ${++nextTerm}`;

test('create a TERMO monitor: 201 and charged once; the same term again (any accents or case) is returned free with reused', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const termo = freshTerm();
  const res = await create(acc, { termo: `  ${termo}  `, tribunais: ['tjsp'] });
  assert.equal(res.statusCode, 201, res.body);
  const m = json(res).data;
  assert.match(m.id, /^pmon_/);
  assert.deepEqual(
    [m.tipo, m.termo, m.origem, m.tribunais, m.status, m.reused, m.evento, m.preco, m.desde],
    ['TERMO', termo, 'PUBLICACOES', ['TJSP'], 'ATIVO', false, 'publicacao_judicial_nova', 3, today()],
  );
  assert.deepEqual([json(res).meta.creditsCharged, json(res).meta.creditsRemaining], [3, 7]);

  const again = await create(acc, { tipo: 'TERMO', termo: termo.toUpperCase().replace('Ç', 'C').replace('Ã', 'A'), webhook_url: 'https://example.com/pub' });
  assert.equal(again.statusCode, 200, again.body);
  assert.deepEqual([json(again).data.id, json(again).data.reused, json(again).data.webhookUrl], [m.id, true, 'https://example.com/pub']);
  assert.equal(json(again).meta.creditsCharged, 0);
  assert.deepEqual(
    (await debits(acc.accountId)).map((r) => [r.query_type, r.delta_centavos, r.operation_id]),
    [['monitor.publicacoes', -PRICE_CENTAVOS, `${m.id}:1`]],
  );
});

test('OAB and PROCESSO monitors: by their own fields or `tipo` + `termo`; the OAB canonical, the case masked', async () => {
  const acc = await h.createAccount({ credits: 5000 });
  const byField = json(await create(acc, { oab: '123.456/sp' })).data;
  assert.deepEqual([byField.tipo, byField.oab, byField.termo, byField.evento], ['OAB', 'SP123456', 'SP123456', 'publicacao_judicial_nova']);
  const byTermo = await create(acc, { tipo: 'OAB', termo: 'OAB/SP 123456' });
  assert.deepEqual([byTermo.statusCode, json(byTermo).data.id], [200, byField.id]);
  const parts = json(await create(acc, { oab_estado: 'RJ', oab_numero: '98765' })).data;
  assert.equal(parts.oab, 'RJ98765');

  const numero = tjspNumber();
  const processo = json(await create(acc, { numero_cnj: formatCnj(numero) })).data;
  assert.deepEqual(
    [processo.tipo, processo.numeroCnj, processo.termo, processo.evento],
    ['PROCESSO', formatCnj(numero), formatCnj(numero), 'diario_movimentacao_nova'],
  );
  const sameCase = await create(acc, { tipo: 'PROCESSO', termo: numero });
  assert.deepEqual([sameCase.statusCode, json(sameCase).data.id], [200, processo.id]);
  assert.equal((await debits(acc.accountId)).length, 3);
});

test('bad bodies: conflicting kinds 400, short term 400, malformed OAB / CNJ 400, unknown court 422, bad webhook 400; none charged or stored', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const cases: [object, number, string, string?][] = [
    [{}, 400, 'MISSING_PARAMETER', 'termo'],
    [{ oab: 'SP123456', numero_cnj: tjspNumber() }, 400, 'INVALID_PARAMETER'],
    [{ tipo: 'PROCESSO', oab: 'SP123456' }, 400, 'INVALID_PARAMETER', 'tipo'],
    [{ termo: 'abc', oab: 'SP123456' }, 400, 'INVALID_PARAMETER', 'termo'],
    [{ tipo: 'TERMO', oab: 'SP123456' }, 400, 'INVALID_PARAMETER', 'tipo'],
    [{ termo: ' a-b ' }, 400, 'INVALID_PARAMETER', 'termo'],
    [{ termo: 'x'.repeat(201) }, 400, 'INVALID_PARAMETER', 'termo'],
    [{ tipo: 'OAB', termo: 'nada' }, 400, 'INVALID_OAB', 'termo'],
    [{ oab: 'ZZ1' }, 400, 'INVALID_OAB', 'oab'],
    [{ numero_cnj: '1234567-00.2020.8.26.0001' }, 400, 'INVALID_CNJ', 'numero_cnj'],
    [{ termo: 'Fulano de Tal', tribunais: ['TJSP', 'XPTO'] }, 422, 'UNKNOWN_COURT', 'tribunais.1'],
    [{ termo: 'Fulano de Tal', webhook_url: 'ftp://example.com' }, 400, 'INVALID_WEBHOOK_URL', 'webhook_url'],
    [{ termo: 'Fulano de Tal', tipo: 'NOME' }, 400, 'INVALID_PARAMETER', 'tipo'],
  ];
  for (const [body, status, code, field] of cases) {
    const res = await create(acc, body);
    assert.equal(res.statusCode, status, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`);
    assert.equal(json(res).error.code, code, JSON.stringify(body));
    if (field) assert.equal(json(res).error.details.field, field, JSON.stringify(body));
  }
  assert.equal((await db.selectFrom('publication_monitors').select('id').where('account_id', '=', acc.accountId).execute()).length, 0);
  assert.equal((await debits(acc.accountId)).length, 0);
});

test("another account's monitor is 404 on GET and DELETE; an intimação monitor is not a publication monitor", async () => {
  const owner = await h.createAccount({ credits: 1000 });
  const stranger = await h.createAccount({ credits: 1000 });
  const id = json(await create(owner, { termo: freshTerm() })).data.id;
  for (const method of ['GET', 'DELETE'] as const) {
    const res = await h.inject({ method, url: `${PATH}/${id}`, headers: stranger.headers });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal(json(res).error.code, 'NOT_FOUND');
  }
  assert.equal(json(await get(owner, `${PATH}/${id}`)).data.status, 'ATIVO');
  const intimacao = json(await h.inject({ method: 'POST', url: '/v1/intimacoes/oab', headers: owner.headers, payload: { oab: 'SP777' } })).data
    .monitoramentos[0];
  assert.equal((await get(owner, `${PATH}/${intimacao.id}`)).statusCode, 404);
  assert.ok(!json(await get(owner, PATH)).data.items.some((m: { id: string }) => m.id === intimacao.id));
});

test('DELETE deactivates (REMOVIDO, readable, free); again unchanged; listing by cursor, removed ones only with status=REMOVIDO', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    ids.push(json(await create(acc, { termo: freshTerm() })).data.id);
    clock.advance(1);
  }
  const del = await h.inject({ method: 'DELETE', url: `${PATH}/${ids[0]}`, headers: acc.headers });
  assert.equal(del.statusCode, 200, del.body);
  const removed = json(del).data;
  assert.deepEqual(
    [removed.status, removed.removidoEm, removed.proximaVerificacaoEm, removed.proximaCobrancaEm],
    ['REMOVIDO', clock.now().toISOString(), null, null],
  );
  clock.advance(1);
  const again = await h.inject({ method: 'DELETE', url: `${PATH}/${ids[0]}`, headers: acc.headers });
  assert.deepEqual(json(again).data, removed);
  assert.deepEqual(json(await get(acc, `${PATH}/${ids[0]}`)).data, removed);

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: any = json(await get(acc, `${PATH}?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
    seen.push(...page.data.items.map((m: { id: string }) => m.id));
    cursor = page.meta.pagination.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, ids.slice(1).reverse());
  assert.deepEqual(
    json(await get(acc, `${PATH}?status=REMOVIDO`)).data.items.map((m: { id: string }) => m.id),
    [ids[0]],
  );
  assert.equal((await debits(acc.accountId)).length, 4, 'removal is free');
});

test(
  'events: publicacao_judicial_nova for TERMO and OAB matches, diario_movimentacao_nova for PROCESSO; court filters; ' +
    'nothing for history or a removed monitor',
  async () => {
    const acc = await h.createAccount({ credits: 5000 });
    const termo = freshTerm();
    const termMonitor = json(await create(acc, { termo, tribunais: ['TJSP'] })).data;
    const oabMonitor = json(await create(acc, { oab: 'MG 31313' })).data;
    const numero = tjspNumber();
    const caseMonitor = json(await create(acc, { numero_cnj: numero })).data;
    const removed = json(await create(acc, { termo: 'Palavra Removida Depois' })).data;
    await h.inject({ method: 'DELETE', url: `${PATH}/${removed.id}`, headers: acc.headers });

    const folded = publicationRecord({
      corpo: `Intime-se ${termo.toUpperCase().normalize('NFD').replace(/\p{M}/gu, '')} para pagar.`,
      dataDisponibilizacao: today(),
    });
    const otherCourt = publicationRecord({ corpo: `Intime-se ${termo}.`, tribunal: 'TJRJ', dataDisponibilizacao: today() });
    const byOab = publicationRecord({ oabs: ['MG31313'], dataDisponibilizacao: today() });
    const byCase = publicationRecord({ numeroCnj: numero, dataDisponibilizacao: today() });
    // Before the monitors' creation day, whatever the date: history.
    const old = publicationRecord({ corpo: termo, dataDisponibilizacao: brasiliaDayBefore(clock.now(), 30) });
    const forRemoved = publicationRecord({ corpo: 'Palavra Removida Depois', dataDisponibilizacao: today() });
    await ingest([folded, otherCourt, byOab, byCase, old, forRemoved]);

    const events = await heard(acc);
    assert.deepEqual(
      events.sort((a: any, b: any) => a.publicacao.localeCompare(b.publicacao)),
      [
        { event: 'publicacao_judicial_nova', monitor: termMonitor.id, publicacao: folded.id },
        { event: 'publicacao_judicial_nova', monitor: oabMonitor.id, publicacao: byOab.id },
        { event: 'diario_movimentacao_nova', monitor: caseMonitor.id, publicacao: byCase.id },
      ].sort((a, b) => a.publicacao.localeCompare(b.publicacao)),
    );
    assert.equal(json(await get(acc, `${PATH}/${termMonitor.id}`)).data.publicacoes, 2, 'the old one is history: matched, no event');
  },
);

test('the cycle asks DJEN once per target (texto, oab, numeroCnj) of the monitors that watch it, and ingests the answer', async () => {
  await db
    .updateTable('publication_monitors')
    .set({ status: 'REMOVIDO', atualizado_em: clock.now().toISOString() })
    .where('status', '<>', 'REMOVIDO')
    .execute();
  const [a, b] = [await h.createAccount({ credits: 5000 }), await h.createAccount({ credits: 5000 })];
  const termo = freshTerm();
  const numero = tjspNumber();
  await create(a, { termo });
  await create(b, { termo: termo.toLowerCase() });
  await create(a, { numero_cnj: numero, tribunais: ['TJSP'] });
  await create(b, { oab: 'PE 4242' });
  // Watching only the STF's and an electoral gazette: heard through their ingest, never asked of DJEN.
  await create(a, { oab: 'PE 4343', fontes: ['STF', 'TRE-PE'] });
  const news = publicationRecord({ corpo: termo, dataDisponibilizacao: today() });
  source.records.push(news);
  source.queries.length = 0;
  clock.advance(INTERVAL_MS);
  await h.runJobs();
  const asked = source.queries.map((q) => q.texto ?? q.numeroCnj ?? `${q.oab!.uf}${q.oab!.numero}`).sort();
  assert.deepEqual(asked, [termo, numero, 'PE4242'].sort());
  assert.equal(source.queries.find((q) => q.numeroCnj)!.tribunal, 'TJSP');
  for (const acc of [a, b])
    assert.deepEqual(
      (await heard(acc)).map((e: any) => e.publicacao),
      [news.id],
    );
});

test('renewal suspends an unpaid monitor; creating it again reactivates it (200, charged a new period, news from today)', async () => {
  const acc = await h.createAccount({ credits: PRICE_CENTAVOS });
  const termo = freshTerm();
  const m = json(await create(acc, { termo })).data;
  clock.advance(RENEWAL_PERIOD_MS + INTERVAL_MS);
  await h.runJobs();
  const suspended = json(await get(acc, `${PATH}/${m.id}`)).data;
  assert.deepEqual([suspended.status, suspended.proximaVerificacaoEm], ['SUSPENSO', null]);
  await credit(db, h.services.clock, acc.accountId, PRICE_CENTAVOS, 'test top-up');
  const back = await create(acc, { termo });
  assert.equal(back.statusCode, 200, back.body);
  assert.deepEqual([json(back).data.id, json(back).data.status, json(back).data.reused, json(back).data.desde], [m.id, 'ATIVO', false, today()]);
  assert.equal(json(back).meta.creditsCharged, PRICE_CENTAVOS / 100);
  assert.deepEqual(
    (await debits(acc.accountId)).map((r) => r.operation_id),
    [`${m.id}:1`, `${m.id}:2`],
  );
});
