/**
 * Case endpoints through HTTP against the sandbox simulator (the real connectors on loopback):
 * cover, enrichment, movements, PDF, refresh and documents, faults, the async window, events.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatReais } from '../../platform/format.ts';
import { cnjCheckDigits, formatCnj } from '../../platform/identifiers/cnj.ts';
import { createHarness, json } from '../../../test/harness.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { chargeRecords } from '../../../test/charges.ts';
import { sqliteConnectionOf } from '../../platform/db/sqlite-dialect.ts';
import { publicMovement } from './movements.ts';
import { CaseStore } from './store.ts';

const h = await createHarness({ env: { TRAMITA_RATE_LIMITS: 'lookup=100000/60s,async=100000/60s,download=100000/60s,search=100000/60s' } });
test.after(() => h.close());

const sandbox = h.sources.sandbox!;
const visible = sandbox.dataset.cases.filter((c) => c.filedAt <= sandbox.dataset.now());
let next = 0;
/** A visible sandbox case not used by another test (the store starts empty for each). */
function freshCase(filter: (c: (typeof visible)[number]) => boolean = () => true) {
  const c = visible.slice(next).find(filter)!;
  next = visible.indexOf(c) + 1;
  return c;
}

async function ledgerRows(accountId: string) {
  return h.services.db.selectFrom('ledger').selectAll().where('account_id', '=', accountId).where('kind', '=', 'debit').execute();
}

async function balance(accountId: string) {
  return (await h.services.db.selectFrom('accounts').select('balance_centavos').where('id', '=', accountId).executeTakeFirstOrThrow()).balance_centavos;
}

function get(url: string, headers: Record<string, string>) {
  return h.inject({ method: 'GET', url, headers });
}

test('a sandbox case: cover from DataJud with its parties, charged once, marked as sandbox data, then answered from the store', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase((x) => x.valorCausaCentavos !== null && x.partes.length > 0);
  const first = await get(`/v1/processos/cnj/${formatCnj(c.numero)}`, acc.headers);
  assert.equal(first.statusCode, 200, first.body);
  const body = json(first);
  assert.equal(body.data.numeroCnj, formatCnj(c.numero));
  assert.equal(body.data.tribunal, c.court.sigla);
  assert.equal(body.data.instancias.length, c.instances.length);
  assert.equal(body.meta.source.sandbox, true);
  assert.equal(body.meta.source.servedFrom, 'upstream');
  assert.equal(body.meta.creditsCharged, 0.1);
  // Asked beside DataJud and waited for (issue 43): the first answer is complete.
  assert.equal(body.data.enriquecimento.status, 'CONCLUIDO');
  assert.equal(body.data.enriquecimento.falha, null);
  assert.equal(body.data.valorCausaCentavos, c.valorCausaCentavos);
  assert.equal(body.data.partes.length, c.partes.length);

  const second = json(await get(`/v1/processos/cnj/${c.numero}`, acc.headers));
  assert.equal(second.meta.source.servedFrom, 'store');
  assert.equal((await ledgerRows(acc.accountId)).length, 2);
  assert.equal(await balance(acc.accountId), 1000 - 20);
});

test('Prefer: return=minimal answers at once; enrichment fills parties and the case value; valor_causa and its compatibility copy agree', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase((x) => x.valorCausaCentavos !== null && x.partes.length > 0);
  const minimal = await get(`/v1/processos/cnj/${c.numero}`, { ...acc.headers, prefer: 'return=minimal' });
  assert.equal(minimal.statusCode, 200, minimal.body);
  assert.equal(minimal.headers['preference-applied'], 'return=minimal');
  assert.equal(json(minimal).data.enriquecimento.status, 'AGENDADO');
  assert.equal(json(minimal).data.partes, null);
  assert.equal(json(minimal).data.valor_causa, null, 'not waited for: filled by the enrichment job');
  assert.ok((await h.runJobs()) >= 1);
  const body = json(await get(`/v1/processos/cnj/${c.numero}`, acc.headers));
  assert.equal(body.data.enriquecimento.status, 'CONCLUIDO');
  assert.equal(body.data.valorCausaCentavos, c.valorCausaCentavos);
  assert.deepEqual(body.data.valor_causa, {
    valor: (c.valorCausaCentavos! / 100).toFixed(2),
    moeda: 'R$',
    valor_formatado: formatReais(c.valorCausaCentavos!),
  });
  assert.deepEqual(body.data.fontes[0].capa.valor_causa, body.data.valor_causa);
  assert.equal(Number(body.data.valor_causa.valor) * 100, c.valorCausaCentavos, 'integrators read it with Number()');
  assert.equal(body.data.partes.length, c.partes.length);
  assert.equal(body.data.partes[0].nome, c.partes[0].person.nome);
});

test("two saves of the same case's details at once (the enrichment job and a summary's) leave one whole set of parties and lawyers", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase((x) => x.partes.length > 1 && x.partes.some((p) => p.advogados.length > 0));
  await get(`/v1/processos/cnj/${c.numero}`, acc.headers);
  const { service } = h.capabilities.cases;
  const details = await h.sources.details!.fetchDetails(c.numero);
  await Promise.all(Array.from({ length: 4 }, () => service.applyDetails(c.numero, details)));
  const body = json(await get(`/v1/processos/cnj/${c.numero}`, acc.headers));
  assert.deepEqual(
    body.data.partes.map((p: { nome: string }) => p.nome),
    c.partes.map((p) => p.person.nome),
  );
  const lawyers = await h.services.db.selectFrom('case_lawyers').select('party_id').where('numero_cnj', '=', c.numero).execute();
  assert.equal(
    lawyers.length,
    c.partes.reduce((n, p) => n + p.advogados.length, 0),
  );
});

test('a cover answered from memory follows a write of its case by another process and by code outside the case store', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  await get(`/v1/processos/cnj/${c.numero}`, acc.headers);
  const cover = async () => json(await get(`/v1/processos/cnj/${c.numero}`, acc.headers)).data;
  assert.equal((await cover()).valorCausaCentavos, c.valorCausaCentavos);

  // Another process: its own connection to the same database.
  const other = await openDatabase(h.config);
  try {
    await other.db.updateTable('cases').set({ valor_causa_centavos: 12_345 }).where('numero_cnj', '=', c.numero).execute();
  } finally {
    await other.close();
  }
  assert.equal((await cover()).valorCausaCentavos, 12_345);

  // This process, without the store (as the refresh and the consultation pages write).
  await h.services.db.updateTable('cases').set({ valor_causa_centavos: 678 }).where('numero_cnj', '=', c.numero).execute();
  assert.equal((await cover()).valorCausaCentavos, 678);
});

test('bad numbers: 400 INVALID_CNJ, STF 422 COURT_NOT_COVERED, unknown case 404 CASE_NOT_FOUND; none charged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const invalid = await get('/v1/processos/cnj/1234567-00.2020.8.26.0001', acc.headers);
  assert.equal(invalid.statusCode, 400);
  assert.equal(json(invalid).error.code, 'INVALID_CNJ');
  const stf = `0000001${cnjCheckDigits('0000001', '2020', '1', '00', '0000')}20201000000`;
  const covered = await get(`/v1/processos/cnj/${stf}`, acc.headers);
  assert.equal(covered.statusCode, 422, covered.body);
  assert.equal(json(covered).error.code, 'COURT_NOT_COVERED');
  const seq = '9999999';
  const unknown = `${seq}${cnjCheckDigits(seq, '2021', '4', '04', '7100')}20214047100`;
  const missing = await get(`/v1/processos/cnj/${unknown}`, acc.headers);
  assert.equal(missing.statusCode, 404, missing.body);
  assert.equal(json(missing).error.code, 'CASE_NOT_FOUND');
  assert.equal(await balance(acc.accountId), 1000);
  assert.equal((await ledgerRows(acc.accountId)).length, 0);
});

test('upstream failures are SOURCE_UNAVAILABLE / SOURCE_TIMEOUT, uncharged, and a stored copy is served stale', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  sandbox.faults.set({ upstream: 'datajud', status: 503 });
  try {
    const res = await get(`/v1/processos/cnj/${c.numero}`, acc.headers);
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(json(res).error.code, 'SOURCE_UNAVAILABLE');
    sandbox.faults.set({ upstream: 'datajud', malformed: true });
    const bad = await get(`/v1/processos/cnj/${c.numero}`, acc.headers);
    assert.equal(json(bad).error.code, 'SOURCE_UNAVAILABLE');
  } finally {
    sandbox.faults.reset();
  }
  assert.equal(await balance(acc.accountId), 1000);
  assert.equal(
    (await h.services.db.selectFrom('cases').select('numero_cnj').where('numero_cnj', '=', c.numero).execute()).length,
    0,
    'a failure is never stored as "not found"',
  );
});

test('movements: newest first, the cursor walks every movement exactly once; page size bounds are 400', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const c = freshCase((x) => x.instances.reduce((n, i) => n + i.movements.length, 0) > 12);
  const seen: string[] = [];
  let cursor: string | null = null;
  let total = 0;
  let last = '9999';
  do {
    const res = await get(`/v1/processos/cnj/${c.numero}/movimentacoes?limit=5${cursor ? `&cursor=${cursor}` : ''}`, acc.headers);
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    for (const m of body.data.movimentacoes) {
      assert.ok(m.dataHora <= last, 'newest first');
      last = m.dataHora;
      seen.push(m.id);
    }
    total = body.meta.pagination.total;
    cursor = body.meta.pagination.nextCursor;
  } while (cursor);
  assert.equal(seen.length, total);
  assert.equal(new Set(seen).size, total);
  for (const limit of [0, 101]) {
    const res = await get(`/v1/processos/cnj/${c.numero}/movimentacoes?limit=${limit}`, acc.headers);
    assert.equal(res.statusCode, 400);
    assert.equal(json(res).error.code, 'INVALID_PARAMETER');
  }
});

test('the cover as a real PDF, charged through headers', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  const res = await get(`/v1/processos/cnj/${c.numero}/pdf`, acc.headers);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/pdf');
  assert.equal(res.rawPayload.subarray(0, 5).toString(), '%PDF-');
  assert.equal(res.headers['x-credits-charged'], '0.1');
});

test('refresh: pending, not started or charged twice, documents only after it completes, one charge on completion', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase((x) => x.documentos.length > 0);
  const before = await get(`/v1/processos/cnj/${c.numero}/documentos-publicos`, acc.headers);
  assert.equal(before.statusCode, 422);
  assert.equal(json(before).error.code, 'REFRESH_REQUIRED');

  const post = () => h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, headers: acc.headers });
  const firstRes = await post();
  const first = json(firstRes);
  assert.equal(first.data.status, 'PENDENTE');
  assert.equal(first.meta.creditsCharged, 0);
  const again = json(await post());
  assert.equal(again.data.id, first.data.id, 'the live refresh is returned, not a second one');
  assert.equal(
    (await h.services.db.selectFrom('jobs').select('id').where('kind', '=', 'processos.atualizar').where('status', '=', 'pending').execute()).length,
    1,
  );

  await h.runJobs();
  const status = json(await get(`/v1/processos/cnj/${c.numero}/status-atualizacao`, acc.headers));
  assert.equal(status.data.status, 'CONCLUIDA');
  const rows = await ledgerRows(acc.accountId);
  assert.deepEqual(
    rows.map((r) => r.query_type),
    ['processo.atualizacao'],
  );
  assert.equal(rows[0].operation_id, first.data.id);
  // The job's charge records the request that asked for it, under the refresh's id.
  assert.deepEqual(await chargeRecords(h.services.db, acc.accountId), [
    {
      queryType: 'processo.atualizacao',
      operationId: first.data.id,
      centavos: 20,
      requestId: firstRes.headers['x-request-id'],
      method: 'POST',
      path: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`,
      statusCode: 200,
    },
  ]);

  const docs = json(await get(`/v1/processos/cnj/${c.numero}/documentos-publicos`, acc.headers));
  assert.equal(docs.data.documentos.length, c.documentos.length);
  const doc = docs.data.documentos[0];
  const file = await get(`/v1/processos/cnj/${c.numero}/documentos/${doc.id}/download`, acc.headers);
  assert.equal(file.statusCode, 200);
  assert.equal(file.headers['content-type'], doc.mimeType);
  assert.equal(file.rawPayload.length, doc.tamanhoBytes);
  assert.equal(file.rawPayload.subarray(0, 5).toString(), '%PDF-');
  const unknown = await get(`/v1/processos/cnj/${c.numero}/documentos/nao-existe/download`, acc.headers);
  assert.equal(unknown.statusCode, 404);
  assert.equal(json(unknown).error.code, 'DOCUMENT_NOT_FOUND');

  const event = await h.services.db
    .selectFrom('domain_events')
    .selectAll()
    .where('kind', '=', 'atualizacao_processo_concluida')
    .where('account_id', '=', acc.accountId)
    .execute();
  assert.equal(event.length, 1);
});

test('a refresh whose source keeps failing ends in ERRO and is never charged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  await h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, headers: acc.headers });
  sandbox.faults.set({ upstream: 'datajud', status: 503 });
  try {
    // Each attempt fails; make the retries due at once instead of waiting the schedule out.
    for (let i = 0; i < 4; i++) {
      await h.runJobs();
      await h.services.db
        .updateTable('jobs')
        .set({ run_at: '2000-01-01T00:00:00.000Z' })
        .where('kind', '=', 'processos.atualizar')
        .where('status', '=', 'pending')
        .execute();
    }
  } finally {
    sandbox.faults.reset();
  }
  const status = json(await get(`/v1/processos/cnj/${c.numero}/status-atualizacao`, acc.headers));
  assert.equal(status.data.status, 'ERRO');
  assert.equal(status.data.erro.code, 'SOURCE_UNAVAILABLE');
  assert.equal((await ledgerRows(acc.accountId)).length, 0);
});

test('a slow upstream turns into 202; the status URL returns the final cover once, charged once', async () => {
  const slow = await createHarness({ env: { TRAMITA_SYNC_WINDOW_MS: '400', TRAMITA_SYNC_WINDOW_MARGIN_MS: '0', TRAMITA_POLL_AFTER_MS: '100' } });
  try {
    const acc = await slow.createAccount({ credits: 1000 });
    const c = slow.sources.sandbox!.dataset.cases.find((x) => x.filedAt <= slow.sources.sandbox!.dataset.now())!;
    slow.sources.sandbox!.faults.set({ upstream: 'datajud', latencyMs: 1200 });
    const res = await slow.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}`, headers: acc.headers });
    assert.equal(res.statusCode, 202, res.body);
    const location = new URL(String(res.headers.location));
    let final: Awaited<ReturnType<typeof slow.inject>> | undefined;
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      final = await slow.inject({ method: 'GET', url: location.pathname, headers: acc.headers });
      if (final.statusCode !== 202) break;
    }
    assert.equal(final!.statusCode, 200, final!.body);
    assert.equal(json(final!).data.numeroCnj, formatCnj(c.numero));
    const replay = await slow.inject({ method: 'GET', url: location.pathname, headers: acc.headers });
    assert.equal(replay.body, final!.body);
    const rows = await slow.services.db.selectFrom('ledger').select('id').where('account_id', '=', acc.accountId).where('kind', '=', 'debit').execute();
    assert.equal(rows.length, 1);
  } finally {
    await slow.close();
  }
});

test('storing a case records novo_processo; movements that appear later record nova_movimentacao', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  await get(`/v1/processos/cnj/${c.numero}`, acc.headers);
  const events = await h.services.db.selectFrom('domain_events').selectAll().where('numero_cnj', '=', c.numero).execute();
  assert.deepEqual(
    events.map((e) => e.kind),
    ['novo_processo'],
  );
  assert.equal(JSON.parse(events[0].data).tribunal, c.court.sigla);
  // Pretend the stored copy lost a movement: the next upstream read finds it "new".
  const victim = await h.services.db.selectFrom('case_movements').select('key').where('numero_cnj', '=', c.numero).limit(1).executeTakeFirstOrThrow();
  await h.services.db.deleteFrom('case_movements').where('numero_cnj', '=', c.numero).where('key', '=', victim.key).execute();
  await h.services.db.updateTable('cases').set({ consultado_em: '2000-01-01T00:00:00.000Z' }).where('numero_cnj', '=', c.numero).execute();
  await get(`/v1/processos/cnj/${c.numero}`, acc.headers);
  const after = await h.services.db.selectFrom('domain_events').selectAll().where('numero_cnj', '=', c.numero).orderBy('created_at').orderBy('id').execute();
  assert.deepEqual(
    after.map((e) => e.kind),
    ['novo_processo', 'nova_movimentacao'],
  );
  assert.deepEqual(
    JSON.parse(after[1].data).movimentacoes.map((m: { id: string }) => m.id),
    [victim.key],
  );
});

test('SQLite: store.many reads its cases in one batch (stamps, then the rows the cache misses), in the order given', {
  skip: Boolean(process.env.DATABASE_URL),
}, async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const cases = [freshCase(), freshCase(), freshCase()];
  for (const c of cases) assert.equal((await get(`/v1/processos/cnj/${c.numero}`, acc.headers)).statusCode, 200);
  const parts = h.capabilities.cases;
  // A store of its own: its cache starts empty, so the first call reads the rows too.
  const store = new CaseStore(h.services.db, h.services.clock, parts.search, h.services.events, publicMovement);
  const connection = sqliteConnectionOf(h.services.db)!;
  const prepare = connection.prepare.bind(connection);
  const caseReads: string[] = [];
  connection.prepare = (sql) => {
    if (/ from "cases" /.test(sql)) caseReads.push(sql);
    return prepare(sql);
  };
  try {
    const asked = [cases[2]!.numero, '0'.repeat(20), cases[0]!.numero, cases[1]!.numero];
    const first = await store.many(asked);
    assert.deepEqual(
      first.map((c) => c.row.numero_cnj),
      [cases[2]!.numero, cases[0]!.numero, cases[1]!.numero],
    );
    assert.equal(caseReads.length, 2, `one read of the stamps, one of the rows: ${caseReads.join('\n')}`);
    caseReads.length = 0;
    const again = await store.many(asked);
    assert.equal(caseReads.length, 1, 'the cache answers: only the stamps are read');
    assert.ok(again.every((c, i) => c === first[i]));
  } finally {
    connection.prepare = prepare;
  }
});
