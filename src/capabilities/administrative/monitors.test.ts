/**
 * Administrative-process monitors through HTTP, a manual clock driving their cycle (spec §4.8, §6
 * pattern 2; issue 17): creation and its one charge, validation, tenancy, listing and removal; a
 * check that finds the process; a new tramitação in the simulator delivered, signed, to the monitor's
 * webhook_url; one lookup per NUP however many accounts follow it; a failing source; renewals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { credit } from '../../platform/billing/ledger.ts';
import { ManualClock } from '../../platform/clock.ts';
import { formatNup } from '../../platform/identifiers/nup.ts';
import { RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { testNow } from '../../../test/test-date.ts';
import { receiver, signature } from '../../../test/webhook-receiver.ts';
import { sandboxNup } from '../../sandbox/protocolo/registry.ts';

const INTERVAL_MS = 1000;
const clock = new ManualClock(testNow());
const h = await createHarness({
  clock,
  env: {
    TRAMITA_MONITOR_INTERVAL_MS: String(INTERVAL_MS),
    TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
    DJEN_TIMEOUT_MS: '300',
    TRAMITA_DEV_TIME_SCALE: '1000',
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s,monitor=100000/60s,account=100000/60s',
  },
});
test.after(() => h.close());
const sandbox = h.sources.sandbox!;
const db = h.services.db;
const PRICE = 200; // monitor.processo_administrativo in config/prices.json
const URL_BASE = '/v1/monitoramentos/processos-administrativos';
const year = clock.now().getUTCFullYear() - 1;
let nextSeq = 3;
/** A sandbox NUP of the CGU no other test follows. */
const freshNup = () => sandboxNup('00190', nextSeq++, year);

const create = (acc: TestAccount, body: object) => h.inject({ method: 'POST', url: URL_BASE, headers: acc.headers, payload: body });
const read = async (acc: TestAccount, id: string) => json(await h.inject({ method: 'GET', url: `${URL_BASE}/${id}`, headers: acc.headers })).data;
async function cycle(ms = INTERVAL_MS): Promise<void> {
  clock.advance(ms);
  await h.runJobs();
}
async function debits(acc: TestAccount): Promise<number[]> {
  const rows = await db
    .selectFrom('ledger')
    .select('delta_centavos')
    .where('account_id', '=', acc.accountId)
    .where('kind', '=', 'debit')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => Math.abs(Number(r.delta_centavos)));
}
/** Retires monitors left by earlier tests, so a cycle checks only the current test's. */
const retireAll = () => db.updateTable('administrative_monitors').set({ status: 'REMOVIDO' }).where('status', '<>', 'REMOVIDO').execute();

test('create by NUP (masked or bare): 201, charged once, checked at the next cycle; again is the same monitor, free; list, read and delete', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const nup = freshNup();
  const res = await create(acc, { nup: formatNup(nup) });
  assert.equal(res.statusCode, 201, res.body);
  const m = json(res).data;
  assert.deepEqual([m.nup, m.status, m.situacao, m.frequencia, m.preco, m.webhookUrl], [formatNup(nup), 'ATIVO', 'PENDENTE', 'DIARIA', 2, null]);
  assert.equal(m.proximaVerificacaoEm, clock.now().toISOString());
  assert.ok(Date.parse(m.proximaCobrancaEm) - clock.now().getTime() === RENEWAL_PERIOD_MS, 'the next charge is shown');
  const again = await create(acc, { nup, frequencia: 'HORARIA' });
  assert.deepEqual([again.statusCode, json(again).data.id, json(again).data.frequencia], [200, m.id, 'HORARIA']);
  assert.deepEqual(await debits(acc), [PRICE]);

  const list = json(await h.inject({ method: 'GET', url: URL_BASE, headers: acc.headers })).data;
  assert.deepEqual(
    list.items.map((i: any) => i.id),
    [m.id],
  );
  const removed = await h.inject({ method: 'DELETE', url: `${URL_BASE}/${m.id}`, headers: acc.headers });
  assert.deepEqual([removed.statusCode, json(removed).data.status, json(removed).data.proximaCobrancaEm], [200, 'REMOVIDO', null]);
  assert.equal(json(await h.inject({ method: 'GET', url: URL_BASE, headers: acc.headers })).data.items.length, 0);
  assert.equal((await read(acc, m.id)).status, 'REMOVIDO', 'still readable (spec §3.2)');
  const other = await h.createAccount({ credits: 1000 });
  for (const method of ['GET', 'DELETE'] as const) {
    const res404 = await h.inject({ method, url: `${URL_BASE}/${m.id}`, headers: other.headers });
    assert.deepEqual([res404.statusCode, json(res404).error.code], [404, 'NOT_FOUND']);
  }
});

test('validation before any charge: INVALID_NUP, BODY_NOT_COVERED, INVALID_WEBHOOK_URL, a missing nup', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const nup = freshNup();
  const cases: [object, number, string][] = [
    [{ nup: '00190.000001/2024-99' }, 400, 'INVALID_NUP'],
    [{ nup: sandboxNup('99999', 1, year) }, 422, 'BODY_NOT_COVERED'],
    [{ nup, webhook_url: 'ftp://example.com/x' }, 400, 'INVALID_WEBHOOK_URL'],
    [{ webhook_url: null }, 400, 'MISSING_PARAMETER'],
  ];
  for (const [body, status, code] of cases) {
    const res = await create(acc, body);
    assert.deepEqual([res.statusCode, json(res).error.code], [status, code], JSON.stringify(body));
  }
  assert.deepEqual(await debits(acc), []);
});

test("a new tramitação in the simulator reaches the monitor's webhook_url, signed, once; the check counts it", async () => {
  await retireAll();
  const rx = await receiver();
  try {
    const acc = await h.createAccount({ credits: 1000 });
    const secret = json(await h.inject({ method: 'GET', url: '/v1/conta/webhook', headers: acc.headers })).data.segredo;
    const nup = freshNup();
    const m = json(await create(acc, { nup, webhook_url: rx.url, frequencia: 'HORARIA' })).data;
    await cycle();
    const checked = await read(acc, m.id);
    assert.deepEqual([checked.situacao, checked.verificacoes, checked.novidades, checked.ultimoErro], ['ENCONTRADO', 1, 0, null]);
    assert.equal(rx.received.length, 0, 'the first check is the baseline: no news');

    const added = await fetch(`${sandbox.url}/_sandbox/protocolo/tramitacao`, {
      method: 'POST',
      body: JSON.stringify({ nup: formatNup(nup), operacao: 'Despacho' }),
    });
    assert.equal(added.status, 201);
    await cycle(60 * 60 * INTERVAL_MS);
    assert.equal(rx.received.length, 1, rx.received.map((d) => d.body.event).join());
    const [d] = rx.received;
    assert.equal(d.headers['x-service-event'], 'nova_movimentacao_administrativa');
    assert.equal(d.headers['x-service-signature'], signature(secret, d.raw));
    assert.equal(d.body.data.nup, formatNup(nup));
    assert.deepEqual(d.body.data.orgao, { sigla: 'CGU', nome: 'Controladoria-Geral da União' });
    assert.deepEqual(
      d.body.data.novasTramitacoes.map((t: any) => t.operacao),
      ['Despacho'],
    );
    const after = await read(acc, m.id);
    assert.deepEqual([after.verificacoes, after.novidades], [2, 1]);

    await cycle(60 * 60 * INTERVAL_MS);
    assert.equal(rx.received.length, 1, 'nothing new, nothing sent');
  } finally {
    await rx.close();
  }
});

test('one lookup per NUP however many accounts follow it; a removed monitor is not checked; a failing source sets ultimoErro and sends nothing', async () => {
  await retireAll();
  const nup = freshNup();
  const [a, b] = [await h.createAccount({ credits: 1000 }), await h.createAccount({ credits: 1000 })];
  const ma = json(await create(a, { nup })).data;
  const mb = json(await create(b, { nup })).data;
  sandbox.resetStats();
  await cycle();
  assert.equal(sandbox.stats().protocolo.requests, 1);
  assert.deepEqual([(await read(a, ma.id)).verificacoes, (await read(b, mb.id)).verificacoes], [1, 1]);

  await h.inject({ method: 'DELETE', url: `${URL_BASE}/${mb.id}`, headers: b.headers });
  sandbox.protocolo.set({ captcha: true });
  try {
    await cycle(24 * 60 * 60 * INTERVAL_MS);
  } finally {
    sandbox.protocolo.reset();
  }
  const failed = await read(a, ma.id);
  assert.match(failed.ultimoErro, /captcha/);
  assert.equal(failed.verificacoes, 1, 'the failed check is not counted');
  assert.equal((await read(b, mb.id)).verificacoes, 1, 'REMOVIDO: not checked');
  await cycle();
  const recovered = await read(a, ma.id);
  assert.deepEqual([recovered.verificacoes, recovered.ultimoErro], [2, null], 'tried again at the next cycle');
});

test('renewal: charged every 30 days while ATIVO; a balance that does not cover it suspends the monitor; POST again reactivates it, charged', async () => {
  await retireAll();
  const acc = await h.createAccount({ credits: PRICE * 2 });
  const nup = freshNup();
  const m = json(await create(acc, { nup })).data;
  await cycle(RENEWAL_PERIOD_MS);
  assert.deepEqual(await debits(acc), [PRICE, PRICE]);
  await cycle(RENEWAL_PERIOD_MS);
  const suspended = await read(acc, m.id);
  assert.deepEqual([suspended.status, suspended.proximaCobrancaEm, suspended.cobranca.observacao !== null], ['SUSPENSO', null, true]);
  const top = await h.inject({ method: 'POST', url: URL_BASE, headers: acc.headers, payload: { nup } });
  assert.deepEqual([top.statusCode, json(top).error?.code], [403, 'INSUFFICIENT_CREDITS']);
  await credit(db, h.services.clock, acc.accountId, PRICE, 'test top-up');
  const back = await h.inject({ method: 'POST', url: URL_BASE, headers: acc.headers, payload: { nup } });
  assert.deepEqual([back.statusCode, json(back).data.id, json(back).data.status], [200, m.id, 'ATIVO']);
  assert.deepEqual(await debits(acc), [PRICE, PRICE, PRICE]);
});
