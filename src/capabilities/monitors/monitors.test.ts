/**
 * Case monitors through HTTP against the sandbox simulator, with a manual clock driving the cycle job:
 * creation and its one charge, validation, tenancy, listing, checks and their events, new movements
 * delivered to a monitor's webhook, upstream failures, renewals and suspension, removal, and the
 * number of upstream requests a cycle makes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { credit } from '../../platform/billing/ledger.ts';
import { ManualClock } from '../../platform/clock.ts';
import { cnjCheckDigits, formatCnj } from '../../platform/identifiers/cnj.ts';
import { RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
import type { SandboxCase } from '../../sandbox/data/model.ts';
import { debitRows } from '../../../test/charges.ts';
import { createHarness, json, monitorTestEnv, type TestAccount } from '../../../test/harness.ts';
import { testNow } from '../../../test/test-date.ts';

const INTERVAL_MS = 1000;
const ENV = monitorTestEnv(INTERVAL_MS);
const PRICE_CENTAVOS = 200; // monitor.processo in config/prices.json (plan padrao)
const URL_BASE = '/v1/monitoramentos/processos';

const clock = new ManualClock(testNow());
const h = await createHarness({ clock, env: ENV });
test.after(() => h.close());
const sandbox = h.sources.sandbox!;
const db = h.services.db;

// ---- helpers ---------------------------------------------------------------------------------------

const now = () => clock.now().getTime();
const visible = sandbox.dataset.cases.filter((c) => c.filedAt <= now() && c.court.datajudAlias);
const used = new Set<string>();
/** A visible sandbox case no other test monitors. */
function freshCase(filter: (c: SandboxCase) => boolean = () => true): SandboxCase {
  const c = visible.find((x) => !used.has(x.numero) && filter(x));
  assert.ok(c, 'the sandbox has no more cases of this kind');
  used.add(c.numero);
  return c;
}

/** When the case's next movement not yet visible happens (Infinity when none). */
function nextMovementAt(c: SandboxCase): number {
  return Math.min(...c.instances.flatMap((i) => i.movements.filter((m) => m.at > now()).map((m) => m.at)));
}

/** A well-formed number of a court DataJud covers (TRF4) that the sandbox does not have. */
function absentNumber(seq: string): string {
  return `${seq}${cnjCheckDigits(seq, '2021', '4', '04', '7100')}20214047100`;
}

function create(acc: TestAccount, body: Record<string, unknown>) {
  return h.inject({ method: 'POST', url: URL_BASE, headers: acc.headers, payload: body });
}

async function monitorOf(acc: TestAccount, id: string) {
  const res = await h.inject({ method: 'GET', url: `${URL_BASE}/${id}`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

/** Moves time on and runs every due job (the cycle, deliveries, enrichment) until none is due. */
async function cycle(ms = INTERVAL_MS): Promise<void> {
  clock.advance(ms);
  await h.runJobs();
}

/** The event kinds the account heard through this monitor, oldest first. */
async function heard(acc: TestAccount, monitorId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('account_events')
    .select('kind')
    .where('account_id', '=', acc.accountId)
    .where('monitor_id', '=', monitorId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.kind);
}

const debits = (accountId: string) => debitRows(db, accountId);

/**
 * What a monitor hears from the check that first stores its case: found, verified, then the case's
 * parties, which the enrichment job brings after that first answer (issue 43).
 */
const FIRST_CHECK = ['processo_encontrado', 'processo_verificado', 'atualizacao_processo_concluida'];

/** Retires every monitor left by earlier tests, so a cycle checks only the current test's. */
async function retireAll(): Promise<void> {
  await db.updateTable('case_monitors').set({ status: 'REMOVIDO' }).where('status', '<>', 'REMOVIDO').execute();
  await db.deleteFrom('event_subscriptions').where('monitor_type', '=', 'processo').execute();
}

/** A receiver on loopback that records every delivery. */
async function receiver() {
  const received: { event: string; body: any }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ event: String(req.headers['x-service-event']), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise((r) => server.close(r)) };
}

// ---- creation --------------------------------------------------------------------------------------

test('create: 201 and charged once; creating it again returns the same monitor (200, free) and applies a new frequency', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  const res = await create(acc, { numero_cnj: c.numero });
  assert.equal(res.statusCode, 201, res.body);
  const body = json(res);
  assert.equal(body.meta.creditsCharged, PRICE_CENTAVOS / 100);
  assert.equal(body.meta.creditsRemaining, (1000 - PRICE_CENTAVOS) / 100);
  const m = body.data;
  assert.match(m.id, /^mon_/);
  assert.equal(m.numeroCnj, formatCnj(c.numero));
  assert.equal(m.tribunal, c.court.sigla);
  assert.deepEqual([m.status, m.situacao, m.frequencia, m.preco, m.verificacoes, m.novidades], ['ATIVO', 'PENDENTE', 'DIARIA', 2, 0, 0]);
  assert.equal(m.proximaVerificacaoEm, clock.now().toISOString(), 'checked at the next cycle');
  assert.equal(m.proximaCobrancaEm, new Date(now() + RENEWAL_PERIOD_MS).toISOString());
  assert.equal(m.webhookUrl, null);

  const again = await create(acc, { numeroCnj: formatCnj(c.numero), frequencia: 'HORARIA' });
  assert.equal(again.statusCode, 200, again.body);
  assert.equal(json(again).data.id, m.id);
  assert.equal(json(again).data.frequencia, 'HORARIA');
  assert.equal(json(again).meta.creditsCharged, 0);
  const rows = await debits(acc.accountId);
  assert.deepEqual(
    rows.map((r) => [r.query_type, r.delta_centavos]),
    [['monitor.processo', -PRICE_CENTAVOS]],
  );
  assert.equal((await db.selectFrom('case_monitors').select('id').where('account_id', '=', acc.accountId).execute()).length, 1);
  const sub = await db.selectFrom('event_subscriptions').selectAll().where('monitor_id', '=', m.id).executeTakeFirstOrThrow();
  assert.equal(sub.topic, `cnj:${c.numero}`);
  assert.deepEqual(JSON.parse(sub.kinds), ['nova_movimentacao']);
});

test('bad numbers: 400 INVALID_CNJ, 400 MISSING_PARAMETER, STF 422 COURT_NOT_COVERED; none charged or stored', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const invalid = await create(acc, { numero_cnj: '1234567-00.2020.8.26.0001' });
  assert.equal(invalid.statusCode, 400, invalid.body);
  assert.equal(json(invalid).error.code, 'INVALID_CNJ');
  const missing = await create(acc, { frequencia: 'DIARIA' });
  assert.equal(missing.statusCode, 400);
  assert.equal(json(missing).error.code, 'MISSING_PARAMETER');
  const stf = `0000001${cnjCheckDigits('0000001', '2020', '1', '00', '0000')}20201000000`;
  const notCovered = await create(acc, { numero_cnj: stf });
  assert.equal(notCovered.statusCode, 422, notCovered.body);
  assert.equal(json(notCovered).error.code, 'COURT_NOT_COVERED');
  const badFrequency = await create(acc, { numero_cnj: freshCase().numero, frequencia: 'ANUAL' });
  assert.equal(badFrequency.statusCode, 400);
  assert.equal((await debits(acc.accountId)).length, 0);
  assert.equal((await db.selectFrom('case_monitors').select('id').where('account_id', '=', acc.accountId).execute()).length, 0);
});

test('webhook_url must be HTTPS and public unless TRAMITA_WEBHOOK_ALLOW_PRIVATE: 400 INVALID_WEBHOOK_URL, uncharged', async () => {
  const strict = await createHarness({ env: { ...ENV, TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'false' } });
  try {
    const acc = await strict.createAccount({ credits: 1000 });
    const numero = strict.sources.sandbox!.dataset.cases.find((c) => c.court.datajudAlias)!.numero;
    for (const url of ['http://example.com/hook', 'https://127.0.0.1/hook', 'not a url']) {
      const res = await strict.inject({ method: 'POST', url: URL_BASE, headers: acc.headers, payload: { numero_cnj: numero, webhook_url: url } });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(json(res).error.code, 'INVALID_WEBHOOK_URL');
      assert.equal(json(res).error.details.field, 'webhook_url');
    }
    assert.equal(
      (await strict.services.db.selectFrom('ledger').select('id').where('account_id', '=', acc.accountId).where('kind', '=', 'debit').execute()).length,
      0,
    );
    assert.equal((await strict.services.db.selectFrom('case_monitors').select('id').execute()).length, 0);
  } finally {
    await strict.close();
  }
});

test('a balance short of the price is 403 INSUFFICIENT_CREDITS and leaves no monitor; a debit failing after the handler is undone', async () => {
  const poor = await h.createAccount({ credits: PRICE_CENTAVOS - 1 });
  const res = await create(poor, { numero_cnj: freshCase().numero });
  assert.equal(res.statusCode, 403, res.body);
  assert.equal(json(res).error.code, 'INSUFFICIENT_CREDITS');

  // Another request spends the balance between the creation's commit and the runner's debit.
  const racing = await h.createAccount({ credits: 1000 });
  const ledger = h.services.ledger;
  const realChargeIn = ledger.chargeIn;
  ledger.chargeIn = async function (trx, c) {
    await trx.updateTable('accounts').set({ balance_centavos: 0 }).where('id', '=', c.accountId).execute();
    return realChargeIn.call(this, trx, c);
  };
  let raced: Awaited<ReturnType<typeof create>>;
  try {
    raced = await create(racing, { numero_cnj: freshCase().numero });
  } finally {
    ledger.chargeIn = realChargeIn;
  }
  assert.equal(raced.statusCode, 403, raced.body);
  for (const acc of [poor, racing]) {
    assert.equal((await db.selectFrom('case_monitors').select('id').where('account_id', '=', acc.accountId).execute()).length, 0);
    assert.equal((await db.selectFrom('event_subscriptions').select('id').where('account_id', '=', acc.accountId).execute()).length, 0);
    assert.equal((await debits(acc.accountId)).length, 0);
  }
});

test("another account's monitor is 404 on GET and DELETE, and stays untouched", async () => {
  const owner = await h.createAccount({ credits: 1000 });
  const stranger = await h.createAccount({ credits: 1000 });
  const id = json(await create(owner, { numero_cnj: freshCase().numero })).data.id;
  for (const method of ['GET', 'DELETE'] as const) {
    const res = await h.inject({ method, url: `${URL_BASE}/${id}`, headers: stranger.headers });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal(json(res).error.code, 'NOT_FOUND');
  }
  const unknown = await h.inject({ method: 'GET', url: `${URL_BASE}/mon_doesnotexist`, headers: owner.headers });
  assert.equal(unknown.statusCode, 404);
  assert.equal((await monitorOf(owner, id)).status, 'ATIVO');
  assert.equal(json(await h.inject({ method: 'GET', url: URL_BASE, headers: stranger.headers })).data.items.length, 0);
});

test('list: newest first, the cursor walks every monitor once; removed ones only with status=REMOVIDO', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(json(await create(acc, { numero_cnj: freshCase().numero })).data.id);
    clock.advance(1); // distinct creation times (ids break ties anyway)
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.inject({ method: 'GET', url: `${URL_BASE}?limit=2${cursor ? `&cursor=${cursor}` : ''}`, headers: acc.headers });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.ok(body.data.items.length <= 2);
    seen.push(...body.data.items.map((m: { id: string }) => m.id));
    cursor = body.meta.pagination.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, [...ids].reverse());

  await h.inject({ method: 'DELETE', url: `${URL_BASE}/${ids[0]}`, headers: acc.headers });
  const live = json(await h.inject({ method: 'GET', url: `${URL_BASE}?limit=100`, headers: acc.headers }));
  assert.deepEqual(
    live.data.items.map((m: { id: string }) => m.id),
    ids.slice(1).reverse(),
  );
  const removed = json(await h.inject({ method: 'GET', url: `${URL_BASE}?status=REMOVIDO`, headers: acc.headers }));
  assert.deepEqual(
    removed.data.items.map((m: { id: string }) => m.id),
    [ids[0]],
  );

  const first = json(await h.inject({ method: 'GET', url: `${URL_BASE}?limit=1`, headers: acc.headers }));
  const foreign = await h.inject({ method: 'GET', url: `${URL_BASE}?status=ATIVO&cursor=${first.meta.pagination.nextCursor}`, headers: acc.headers });
  assert.equal(foreign.statusCode, 400, 'a cursor belongs to its listing (filter included)');
  assert.equal(json(foreign).error.code, 'INVALID_CURSOR');
  await retireAll();
});

// ---- the cycle -------------------------------------------------------------------------------------

test('the cycle: the first check finds the case (processo_encontrado + processo_verificado), the next ones only verify', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  const id = json(await create(acc, { numero_cnj: c.numero, frequencia: 'HORARIA' })).data.id;
  await cycle();
  const m = await monitorOf(acc, id);
  assert.deepEqual([m.verificacoes, m.situacao, m.ultimoErro], [1, 'ENCONTRADO', null]);
  assert.equal(m.ultimaVerificacaoEm, clock.now().toISOString());
  assert.equal(m.proximaVerificacaoEm, new Date(now() + INTERVAL_MS).toISOString(), 'HORARIA = 1 × TRAMITA_MONITOR_INTERVAL_MS');
  assert.deepEqual(await heard(acc, id), FIRST_CHECK);
  const events = await db
    .selectFrom('domain_events')
    .selectAll()
    .where('numero_cnj', '=', c.numero)
    .where('kind', 'in', ['processo_encontrado', 'processo_verificado'])
    .execute();
  assert.equal(events.length, 2);
  for (const e of events) {
    const data = JSON.parse(e.data);
    assert.deepEqual([data.numeroCnjDigitos, data.numeroCnj, data.tribunal, data.monitorId], [c.numero, formatCnj(c.numero), c.court.sigla, id]);
  }
  assert.deepEqual(JSON.parse(events.find((e) => e.kind === 'processo_verificado')!.data).situacao, 'ENCONTRADO');
  assert.ok(await db.selectFrom('cases').select('numero_cnj').where('numero_cnj', '=', c.numero).executeTakeFirst(), 'the check stored the case');

  await cycle();
  assert.equal((await monitorOf(acc, id)).verificacoes, 2);
  assert.deepEqual(await heard(acc, id), [...FIRST_CHECK, 'processo_verificado']);
  await retireAll();
});

test('a valid number the source does not have: NAO_ENCONTRADO, announced once over two cycles', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const id = json(await create(acc, { numero_cnj: absentNumber('9999991'), frequencia: 'HORARIA' })).data.id;
  await cycle();
  await cycle();
  const m = await monitorOf(acc, id);
  assert.deepEqual([m.situacao, m.verificacoes], ['NAO_ENCONTRADO', 2]);
  assert.deepEqual(await heard(acc, id), ['processo_nao_encontrado', 'processo_verificado', 'processo_verificado']);
  await retireAll();
});

test('new movements: nova_movimentacao and atualizacao_processo_concluida reach the monitor and its webhook_url', async () => {
  const rx = await receiver();
  try {
    const acc = await h.createAccount({ credits: 1000 });
    const c = freshCase((x) => nextMovementAt(x) < now() + 7 * 24 * 3_600_000);
    const created = json(await create(acc, { numero_cnj: c.numero, frequencia: 'HORARIA', webhook_url: rx.url })).data;
    assert.equal(created.webhookUrl, rx.url);
    await cycle();
    assert.deepEqual(await heard(acc, created.id), FIRST_CHECK);
    // Deliveries run concurrently: their arrival order is not the events' order.
    assert.deepEqual(rx.received.map((r) => r.event).sort(), [...FIRST_CHECK].sort());
    const parties = rx.received.find((r) => r.event === 'atualizacao_processo_concluida')!.body;
    assert.deepEqual([parties.data.motivo, parties.data.partes], ['PARTES', c.partes.length]);

    // Time passes beyond the case's next movement: the next check brings it in.
    await cycle(nextMovementAt(c) - now() + INTERVAL_MS);
    const kinds = await heard(acc, created.id);
    assert.deepEqual(kinds.slice(FIRST_CHECK.length), ['nova_movimentacao', 'atualizacao_processo_concluida', 'processo_verificado']);
    const m = await monitorOf(acc, created.id);
    assert.ok(m.novidades >= 1);
    assert.deepEqual(
      rx.received
        .slice(FIRST_CHECK.length)
        .map((r) => r.event)
        .sort(),
      ['atualizacao_processo_concluida', 'nova_movimentacao', 'processo_verificado'],
    );
    const update = rx.received.slice(FIRST_CHECK.length).find((r) => r.event === 'atualizacao_processo_concluida')!.body;
    assert.equal(update.data.novasMovimentacoes, m.novidades);
    assert.equal(update.data.monitorId, created.id);
    const news = rx.received.find((r) => r.event === 'nova_movimentacao')!.body;
    assert.equal(news.data.numeroCnj, formatCnj(c.numero));
    assert.equal(news.data.processo.numero_unico, formatCnj(c.numero));
    // The newest movement as the REST listing prints it: receivers deduplicate on data + conteudo.
    const listed = json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}/movimentacoes?limit=1`, headers: acc.headers })).data
      .movimentacoes[0];
    assert.deepEqual(news.data.event_data, { id: listed.id, data: listed.data, conteudo: listed.conteudo });
    assert.equal(news.data.movimentacoes.length, m.novidades);
    const verified = rx.received.slice(FIRST_CHECK.length).find((r) => r.event === 'processo_verificado')!.body;
    assert.deepEqual([verified.data.novasMovimentacoes, verified.data.situacao], [m.novidades, 'ENCONTRADO']);
  } finally {
    await rx.close();
    await retireAll();
  }
});

test('an upstream failure: no events, ultimoErro set, checked normally at the next cycle', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const id = json(await create(acc, { numero_cnj: freshCase().numero, frequencia: 'HORARIA' })).data.id;
  sandbox.faults.set({ upstream: 'datajud', status: 503, times: 100 });
  try {
    await cycle();
  } finally {
    sandbox.faults.reset();
  }
  const failed = await monitorOf(acc, id);
  assert.deepEqual([failed.verificacoes, failed.situacao], [0, 'PENDENTE']);
  assert.match(failed.ultimoErro, /failed \(unavailable\)/);
  assert.deepEqual(await heard(acc, id), []);

  await cycle();
  const ok = await monitorOf(acc, id);
  assert.deepEqual([ok.verificacoes, ok.situacao, ok.ultimoErro], [1, 'ENCONTRADO', null]);
  assert.deepEqual(await heard(acc, id), FIRST_CHECK);
  await retireAll();
});

test('DELETE: REMOVIDO, no further checks or news; deleting again returns it unchanged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const id = json(await create(acc, { numero_cnj: freshCase().numero, frequencia: 'HORARIA' })).data.id;
  await cycle();
  const del = await h.inject({ method: 'DELETE', url: `${URL_BASE}/${id}`, headers: acc.headers });
  assert.equal(del.statusCode, 200, del.body);
  const removed = json(del).data;
  assert.equal(removed.status, 'REMOVIDO');
  assert.equal(removed.removidoEm, clock.now().toISOString());
  assert.equal(removed.proximaVerificacaoEm, null);
  assert.equal((await db.selectFrom('event_subscriptions').select('id').where('monitor_id', '=', id).execute()).length, 0);
  await cycle();
  await cycle();
  assert.equal((await monitorOf(acc, id)).verificacoes, 1);
  assert.deepEqual(await heard(acc, id), FIRST_CHECK);
  const again = await h.inject({ method: 'DELETE', url: `${URL_BASE}/${id}`, headers: acc.headers });
  assert.equal(again.statusCode, 200);
  assert.deepEqual(json(again).data, removed);
  assert.equal((await debits(acc.accountId)).length, 1, 'removal is free');
});

test('one cycle asks DataJud once per alias, however many monitors share it', async () => {
  await retireAll();
  const acc = await h.createAccount({ credits: 100_000 });
  const counts = Map.groupBy(
    visible.filter((c) => !used.has(c.numero)),
    (c) => c.alias,
  );
  const [busiest, second] = [...counts.values()].sort((a, b) => b.length - a.length);
  const cases = [...busiest, ...second.slice(0, 3)];
  for (const c of cases) {
    used.add(c.numero);
    assert.equal((await create(acc, { numero_cnj: c.numero, frequencia: 'HORARIA' })).statusCode, 201);
  }
  await cycle(); // first checks (and any alias spelling probes)
  sandbox.resetStats();
  await cycle();
  const requests = sandbox.stats().datajud.requests;
  assert.ok(requests >= 1 && requests <= 2, `${cases.length} monitors on 2 aliases took ${requests} DataJud requests`);
  const checked = await db.selectFrom('case_monitors').select('verificacoes').where('account_id', '=', acc.accountId).execute();
  assert.equal(checked.length, cases.length);
  assert.ok(checked.every((m) => m.verificacoes === 2));
  await retireAll();
});

test('renewal: every 30 days one more debit; a balance that no longer covers it suspends the monitor until it is created again', async () => {
  const rich = await h.createAccount({ credits: 1000 });
  const poor = await h.createAccount({ credits: PRICE_CENTAVOS });
  const richId = json(await create(rich, { numero_cnj: freshCase().numero, frequencia: 'HORARIA' })).data.id;
  const c = freshCase();
  const poorId = json(await create(poor, { numero_cnj: c.numero, frequencia: 'HORARIA' })).data.id;
  await cycle();
  const checksBefore = (await monitorOf(poor, poorId)).verificacoes;

  await cycle(RENEWAL_PERIOD_MS);
  const renewed = await debits(rich.accountId);
  // Creation pays period 1, the renewal period 2: one ledger row each, by operation id.
  assert.deepEqual(
    renewed.map((r) => r.operation_id),
    [`${richId}:1`, `${richId}:2`],
  );
  const richNow = await monitorOf(rich, richId);
  assert.equal(richNow.status, 'ATIVO');
  assert.ok(richNow.proximaCobrancaEm > clock.now().toISOString());

  const suspended = await monitorOf(poor, poorId);
  assert.equal(suspended.status, 'SUSPENSO');
  assert.match(suspended.ultimoErro, /did not cover the renewal/);
  assert.equal(suspended.verificacoes, checksBefore, 'suspended before its check');
  await cycle();
  await cycle();
  assert.equal((await monitorOf(poor, poorId)).verificacoes, checksBefore, 'no checks while suspended');
  assert.equal((await debits(poor.accountId)).length, 1);

  await credit(db, h.services.clock, poor.accountId, PRICE_CENTAVOS, 'test top-up');
  const back = await create(poor, { numero_cnj: c.numero });
  assert.equal(back.statusCode, 200, back.body);
  assert.equal(json(back).data.id, poorId);
  assert.equal(json(back).data.status, 'ATIVO');
  assert.equal(json(back).meta.creditsCharged, PRICE_CENTAVOS / 100);
  assert.equal((await debits(poor.accountId)).length, 2);
  await cycle();
  assert.equal((await monitorOf(poor, poorId)).verificacoes, checksBefore + 1, 'checked again once reactivated');
  await retireAll();
});
