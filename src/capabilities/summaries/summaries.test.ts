/**
 * AI summaries through HTTP against the sandbox, with its simulated chat-completions model (the real
 * connector code) or the offline writer: request → status polls → FINALIZADO → read; `request_id`;
 * every model fault ending in ERRO (free) or in a retry that succeeds (charged once); the offline
 * writer on three kinds of case; outdated detection; the refresh a stale case gets first; tenancy;
 * idempotency; the callback event.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../platform/clock.ts';
import { cnjCheckDigits, formatCnj } from '../../platform/identifiers/cnj.ts';
import type { SandboxCase } from '../../sandbox/data/model.ts';
import { createHarness, json, type Harness, type TestAccount } from '../../../test/harness.ts';
import { testNow } from '../../../test/test-date.ts';
import { chargeRecords } from '../../../test/charges.ts';
import { closeReceiver, withWebhook } from '../webhooks/testing.ts';
import { SUMMARY_DISCLAIMER } from './offline.ts';

const PRICE = 50; // resumo_ia.solicitacao in config/prices.json (plan padrao)
const REFRESH_PRICE = 20; // processo.atualizacao
const ENV = {
  // Retries of the model connector and of the job, divided by 1000: the whole ladder runs in milliseconds.
  TRAMITA_DEV_TIME_SCALE: '1000',
  TRAMITA_SUMMARY_TIMEOUT_MS: '300',
  TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
  TRAMITA_RATE_LIMITS: 'lookup=100000/60s,async=100000/60s,account=100000/60s,monitor=100000/60s',
};

const base = (cnj: string) => `/v1/processos/cnj/${cnj}/resumo-ia`;

function request(h: Harness, acc: TestAccount, cnj: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) {
  return h.inject({ method: 'POST', url: `${base(cnj)}/solicitar-atualizacao`, headers: { ...acc.headers, ...headers }, ...(payload ? { payload } : {}) });
}

async function status(h: Harness, acc: TestAccount, cnj: string, id?: string) {
  return h.inject({ method: 'GET', url: `${base(cnj)}/status${id ? `?request_id=${id}` : ''}`, headers: acc.headers });
}

async function read(h: Harness, acc: TestAccount, cnj: string, id?: string) {
  const res = await h.inject({ method: 'GET', url: `${base(cnj)}${id ? `?request_id=${id}` : ''}`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

/** Runs due jobs until the execution ends (bounded): retries are scheduled a few scaled ms ahead. */
async function settle(h: Harness, acc: TestAccount, cnj: string, id: string, tick?: () => void) {
  for (let i = 0; i < 200; i++) {
    tick?.();
    await h.runJobs();
    const s = json(await status(h, acc, cnj, id)).data;
    if (s.status === 'FINALIZADO' || s.status === 'ERRO') return s;
    await sleep(20);
  }
  throw new Error(`summary ${id} did not end`);
}

async function debits(h: Harness, accountId: string) {
  const rows = await h.services.db
    .selectFrom('ledger')
    .select(['query_type', 'delta_centavos'])
    .where('account_id', '=', accountId)
    .where('kind', '=', 'debit')
    .execute();
  return rows.map((r) => ({ query_type: r.query_type, delta_centavos: Number(r.delta_centavos) }));
}

// ---- with the sandbox's simulated model ------------------------------------------------------------

const h = await createHarness({ env: ENV });
test.after(async () => {
  await h.close();
  await closeReceiver();
});
const sandbox = h.sources.sandbox!;
const visible = sandbox.dataset.cases.filter((c) => c.filedAt <= sandbox.dataset.now() && c.court.datajudAlias);
let next = 0;
const aCase = () => visible[(next++ * 13) % visible.length].numero;

test('request → 202 with providerRequestId and statusUrl → FINALIZADO → the summary, written by the model, charged once', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const cnj = aCase();
  const res = await request(h, acc, cnj);
  assert.equal(res.statusCode, 200, res.body);
  const started = json(res);
  assert.match(started.data.providerRequestId, /^res_/);
  assert.equal(started.data.status, 'PENDENTE');
  assert.equal(started.data.numeroCnj, formatCnj(cnj));
  assert.equal(res.headers.location, started.data.statusUrl);
  assert.equal(started.meta.creditsCharged, 0, 'charged when it ends, not now');
  assert.equal((await debits(h, acc.accountId)).length, 0);

  const again = await request(h, acc, cnj);
  assert.equal(json(again).data.providerRequestId, started.data.providerRequestId, 'the running one, again');
  assert.equal(json(again).meta.reaproveitado, true);

  const ended = await settle(h, acc, cnj, started.data.providerRequestId);
  assert.equal(ended.status, 'FINALIZADO', JSON.stringify(ended));
  assert.equal(ended.metodo, 'modelo');
  assert.equal(ended.modelo, 'sandbox-resumo-1');
  const summary = await read(h, acc, cnj);
  assert.equal(summary.state, 'success');
  assert.equal(summary.cached, true);
  assert.equal(summary.numeroCnj, formatCnj(cnj));
  assert.equal(summary.providerRequestId, started.data.providerRequestId);
  assert.ok(summary.atualizadoEm);
  assert.equal(summary.desatualizado, false);
  assert.match(summary.conteudo, /sandbox-resumo-1/);
  // The job's charge records the request that asked for it, under the summary's id.
  assert.deepEqual(await chargeRecords(h.services.db, acc.accountId), [
    {
      queryType: 'resumo_ia.solicitacao',
      operationId: started.data.providerRequestId,
      centavos: PRICE,
      requestId: res.headers['x-request-id'],
      method: 'POST',
      path: `${base(cnj)}/solicitar-atualizacao`,
      statusCode: 200,
    },
  ]);
  assert.ok(summary.conteudo.includes(SUMMARY_DISCLAIMER), 'ends with the informational-only notice');
  const stored = visible.find((c) => c.numero === cnj)!;
  assert.ok(summary.conteudo.includes(stored.instances[0].classe.nome), 'written from the case: its class');
  assert.deepEqual(await debits(h, acc.accountId), [{ query_type: 'resumo_ia.solicitacao', delta_centavos: -PRICE }]);
  // Status polls and reads never charge (the shipped plans price reads at 0).
  await status(h, acc, cnj);
  await read(h, acc, cnj);
  assert.equal((await debits(h, acc.accountId)).length, 1);
});

test('request_id selects one execution; without it, the latest finished one', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const cnj = aCase();
  const first = json(await request(h, acc, cnj)).data.providerRequestId;
  await settle(h, acc, cnj, first);
  const second = json(await request(h, acc, cnj)).data.providerRequestId;
  assert.notEqual(second, first);
  await settle(h, acc, cnj, second);
  assert.equal((await read(h, acc, cnj)).providerRequestId, second);
  assert.equal((await read(h, acc, cnj, first)).providerRequestId, first);
  const firstEnded = json(await status(h, acc, cnj, first)).data;
  assert.equal(firstEnded.status, 'FINALIZADO', JSON.stringify(firstEnded));
  assert.equal((await debits(h, acc.accountId)).length, 2);
});

test('no summary yet: the answer says so, names the request to make, invents nothing and charges nothing', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const cnj = aCase();
  const res = await h.inject({ method: 'GET', url: base(cnj), headers: acc.headers });
  assert.equal(res.statusCode, 200);
  const body = json(res);
  assert.equal(body.data.conteudo, null);
  assert.equal(body.data.state, 'none');
  assert.equal(body.data.proximaAcao.method, 'POST');
  assert.equal(body.data.proximaAcao.path, `/v1/processos/cnj/${cnj}/resumo-ia/solicitar-atualizacao`);
  assert.equal(body.meta.creditsCharged, 0);
  assert.equal((await status(h, acc, cnj)).statusCode, 404, 'never requested');
});

test("another account's execution is 404, on the status and on the summary", async () => {
  const owner = await h.createAccount({ credits: 1000 });
  const stranger = await h.createAccount({ credits: 1000 });
  const cnj = aCase();
  const id = json(await request(h, owner, cnj)).data.providerRequestId;
  await settle(h, owner, cnj, id);
  assert.equal((await status(h, stranger, cnj, id)).statusCode, 404);
  const res = await h.inject({ method: 'GET', url: `${base(cnj)}?request_id=${id}`, headers: stranger.headers });
  assert.equal(res.statusCode, 404);
  assert.equal(json(res).error.code, 'NOT_FOUND');
  assert.equal((await read(h, stranger, cnj)).state, 'none', 'the stranger has no summary of its own');
});

test("an Idempotency-Key replays the request's answer: one execution, one charge", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const cnj = aCase();
  const a = await request(h, acc, cnj, { enviar_callback: false }, { 'idempotency-key': 'resumo-1' });
  const b = await request(h, acc, cnj, { enviar_callback: false }, { 'idempotency-key': 'resumo-1' });
  assert.equal(b.body, a.body);
  assert.equal(b.headers['idempotent-replayed'], 'true');
  await settle(h, acc, cnj, json(a).data.providerRequestId);
  const rows = await h.services.db.selectFrom('case_summaries').select('id').where('account_id', '=', acc.accountId).execute();
  assert.equal(rows.length, 1);
  assert.equal((await debits(h, acc.accountId)).length, 1);
});

test('bad requests: an invalid number is 400, an unknown case 404, a callback without a webhook 422, a short balance 403; none charged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  assert.equal(json(await request(h, acc, '123')).error.code, 'INVALID_CNJ');
  const absent = `9999999${cnjCheckDigits('9999999', '2021', '4', '04', '7100')}20214047100`;
  const unknown = await request(h, acc, absent);
  assert.equal(unknown.statusCode, 404, unknown.body);
  assert.equal(json(unknown).error.code, 'CASE_NOT_FOUND');
  const noHook = await request(h, acc, aCase(), { enviar_callback: true });
  assert.equal(noHook.statusCode, 422);
  assert.equal(json(noHook).error.code, 'WEBHOOK_NOT_CONFIGURED');
  const poor = await h.createAccount({ credits: 0 });
  assert.equal(json(await request(h, poor, aCase())).error.code, 'INSUFFICIENT_CREDITS');
  assert.equal((await debits(h, acc.accountId)).length, 0);
});

test('Prefer: return=estimate prices the request (50 c), the read (0) and the status (free) without starting anything', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const cnj = aCase();
  const estimate = async (method: 'GET' | 'POST', url: string) =>
    json(await h.inject({ method, url, headers: { ...acc.headers, prefer: 'return=estimate' } })).data;
  const asked = await estimate('POST', `${base(cnj)}/solicitar-atualizacao`);
  assert.deepEqual([asked.queryType, asked.priceCentavos, asked.chargedOn], ['resumo_ia.solicitacao', PRICE, 'completion']);
  assert.equal((await estimate('GET', base(cnj))).priceCentavos, 0);
  assert.equal((await estimate('GET', `${base(cnj)}/status`)).priceCentavos, 0);
  assert.equal((await h.services.db.selectFrom('case_summaries').select('id').where('account_id', '=', acc.accountId).execute()).length, 0);
});

test('with enviar_callback the account hears resumo_ia_concluido when it ends', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  await withWebhook(h, acc);
  const cnj = aCase();
  const id = json(await request(h, acc, cnj, { send_callback: true })).data.providerRequestId;
  await settle(h, acc, cnj, id);
  const event = await h.services.db
    .selectFrom('domain_events')
    .select(['kind', 'data'])
    .where('account_id', '=', acc.accountId)
    .where('kind', '=', 'resumo_ia_concluido')
    .executeTakeFirstOrThrow();
  const data = JSON.parse(event.data);
  assert.equal(data.providerRequestId, id);
  assert.equal(data.status, 'FINALIZADO');
  assert.equal(data.numeroCnj, formatCnj(cnj));
});

// ---- the model's faults ----------------------------------------------------------------------------

const FAULTS: [string, () => void, 'FINALIZADO' | 'ERRO', string?][] = [
  ['429 once (Retry-After), then an answer', () => sandbox.faults.set({ upstream: 'llm', status: 429, retryAfterSeconds: 0, times: 1 }), 'FINALIZADO'],
  ['503 every time', () => sandbox.faults.set({ upstream: 'llm', status: 503 }), 'ERRO', 'SOURCE_UNAVAILABLE'],
  ['403 (a misconfigured key)', () => sandbox.faults.set({ upstream: 'llm', status: 403 }), 'ERRO', 'SOURCE_UNAVAILABLE'],
  ['a hung server', () => sandbox.faults.set({ upstream: 'llm', hang: true }), 'ERRO', 'SOURCE_TIMEOUT'],
  ['malformed JSON', () => sandbox.faults.set({ upstream: 'llm', malformed: true }), 'ERRO', 'SOURCE_UNAVAILABLE'],
  ['no choices', () => sandbox.llm.set({ emptyChoices: true }), 'ERRO', 'SOURCE_UNAVAILABLE'],
  ['cut by max_tokens once, then complete', () => sandbox.llm.set({ finishLength: true, times: 1 }), 'FINALIZADO'],
  ['cut by max_tokens every time', () => sandbox.llm.set({ finishLength: true }), 'ERRO', 'MODEL_OUTPUT_INCOMPLETE'],
  ['a context-length refusal once, then an answer from less input', () => sandbox.llm.set({ contextError: true, times: 1 }), 'FINALIZADO'],
  ['a context-length refusal every time', () => sandbox.llm.set({ contextError: true }), 'ERRO', 'SOURCE_UNAVAILABLE'],
  ['a <think> block before the answer', () => sandbox.llm.set({ think: true }), 'FINALIZADO'],
];

for (const [what, inject, end, code] of FAULTS) {
  test(`model fault: ${what} → ${end}${code ? ` ${code}` : ''}, ${end === 'ERRO' ? 'free' : 'charged once'}`, async () => {
    const acc = await h.createAccount({ credits: 1000 });
    const cnj = aCase();
    inject();
    try {
      const id = json(await request(h, acc, cnj)).data.providerRequestId;
      const ended = await settle(h, acc, cnj, id);
      assert.equal(ended.status, end, JSON.stringify(ended));
      if (code) assert.equal(ended.erro.codigo, code, JSON.stringify(ended));
      assert.equal((await debits(h, acc.accountId)).length, end === 'ERRO' ? 0 : 1);
      const summary = await read(h, acc, cnj, id);
      if (end === 'ERRO') assert.equal(summary.conteudo, null);
      else assert.doesNotMatch(summary.conteudo, /<think>|razões internas/);
    } finally {
      sandbox.faults.reset();
      sandbox.llm.reset();
    }
  });
}

test('a prompt the server read only in part (silent truncation, like Ollama) is flagged in aviso', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const cnj = aCase();
  sandbox.llm.set({ silentTruncationChars: 400 });
  try {
    const id = json(await request(h, acc, cnj)).data.providerRequestId;
    assert.equal((await settle(h, acc, cnj, id)).status, 'FINALIZADO');
    assert.match((await read(h, acc, cnj)).aviso, /truncado/);
  } finally {
    sandbox.llm.reset();
  }
});

// ---- the offline writer, freshness and outdated summaries, on a clock of their own ----------------

test('the offline writer summarises a civil case, a labour case with two instances and a criminal case', async (t) => {
  const clock = new ManualClock(testNow());
  const o = await createHarness({ clock, env: { ...ENV, TRAMITA_SUMMARY_PROVIDER: 'extrativo' } });
  t.after(() => o.close());
  const acc = await o.createAccount({ credits: 10_000 });
  const cases = o.sources.sandbox!.dataset.cases.filter((c) => c.filedAt <= clock.now().getTime() && c.court.datajudAlias);
  const pick = (what: string, f: (c: SandboxCase) => boolean) => {
    const found = cases.find(f);
    assert.ok(found, `the sandbox has a ${what}`);
    return found;
  };
  const shapes = [
    pick(
      'civil case of a state court',
      (c) => c.court.segmento === 'Estadual' && c.instances.length === 1 && !/penal|criminal/i.test(c.instances[0].classe.nome),
    ),
    pick('labour case with two instances', (c) => c.court.sigla.startsWith('TRT') && c.instances.length >= 2),
    pick('criminal case', (c) => /penal|criminal/i.test(c.instances[0].classe.nome)),
  ];
  for (const c of shapes) {
    const id = json(await request(o, acc, c.numero)).data.providerRequestId;
    const ended = await settle(o, acc, c.numero, id);
    assert.equal(ended.status, 'FINALIZADO', JSON.stringify(ended));
    assert.equal(ended.metodo, 'extrativo-v1');
    const summary = await read(o, acc, c.numero);
    assert.ok(summary.conteudo.includes(formatCnj(c.numero)));
    assert.ok(summary.conteudo.includes(c.instances[0].classe.nome), `${c.numero}: its class`);
    assert.ok(summary.conteudo.includes(SUMMARY_DISCLAIMER));
    assert.match(summary.conteudo, /sem modelo de linguagem/);
    assert.doesNotMatch(summary.conteudo, /undefined|NaN|\bnull\b/);
    if (c.instances.length >= 2) assert.match(summary.conteudo, /2º grau/);
  }
});

test('a stale case is refreshed first (charged as a refresh), and a summary is outdated once the case moves', async (t) => {
  const clock = new ManualClock(testNow());
  const o = await createHarness({ clock, env: { ...ENV, TRAMITA_SUMMARY_PROVIDER: 'extrativo', TRAMITA_CASE_FRESH_MINUTES: '60' } });
  t.after(() => o.close());
  const acc = await o.createAccount({ credits: 10_000 });
  const now = clock.now().getTime();
  // A case with a movement due in the next days: time will bring it.
  const c = o.sources.sandbox!.dataset.cases.find(
    (x) => x.filedAt <= now && x.court.datajudAlias && x.instances.some((i) => i.movements.some((m) => m.at > now + 3_600_000 && m.at < now + 5 * 86_400_000)),
  )!;
  assert.ok(c, 'the sandbox has a case that moves within days');
  // The job waiting on the refresh looks again a moment later: the manual clock must move for it.
  const tick = () => clock.advance(100);
  const first = json(await request(o, acc, c.numero)).data.providerRequestId;
  await settle(o, acc, c.numero, first, tick);
  assert.equal((await read(o, acc, c.numero)).desatualizado, false);

  const due = Math.min(...c.instances.flatMap((i) => i.movements.map((m) => m.at)).filter((at) => at > now));
  clock.advance(due - now + 60_000);
  // The stored case is now older than the freshness setting: a new request refreshes it first.
  const second = json(await request(o, acc, c.numero)).data.providerRequestId;
  const ended = await settle(o, acc, c.numero, second, tick);
  assert.equal(ended.status, 'FINALIZADO', JSON.stringify(ended));
  const charged = (await debits(o, acc.accountId)).map((d) => d.query_type).sort();
  assert.deepEqual(charged, ['processo.atualizacao', 'resumo_ia.solicitacao', 'resumo_ia.solicitacao'], 'the refresh is charged as a refresh');
  assert.equal((await debits(o, acc.accountId)).find((d) => d.query_type === 'processo.atualizacao')!.delta_centavos, -REFRESH_PRICE);
  const older = await read(o, acc, c.numero, first);
  assert.equal(older.desatualizado, true, 'written before the new movement');
  assert.equal(older.proximaAcao.method, 'POST');
  assert.equal((await read(o, acc, c.numero)).desatualizado, false, 'the new one includes it');
});
