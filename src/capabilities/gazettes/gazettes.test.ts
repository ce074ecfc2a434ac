/**
 * The gazettes through HTTP against the sandbox's STF and DJE eleitoral (issue 16): searches by party,
 * OAB in any spelling and process; one publication with and without its HTML; the electoral editions
 * of last week and a real PDF; the period and court rules checked before any upstream call; every
 * fault mapped to an uncharged documented error; the background ingest (resumable, idempotent); and
 * publication monitors hearing the STF and electoral gazettes through `fontes`, with signed webhooks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { receiver, signature } from '../../../test/webhook-receiver.ts';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { eachDay } from '../../platform/http/period.ts';
import { parseOabList } from '../../platform/identifiers/oab.ts';
import { pdfLines } from '../../sources/dje/split.ts';
import { GAZETTE_INGEST_JOB } from './job.ts';
import { ingestDay, lastBusinessDay } from './testing.ts';

const ENV = {
  TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
  TRAMITA_FEED_SETTLE_MS: '0',
  DJEN_TIMEOUT_MS: '300',
  TRAMITA_DEV_TIME_SCALE: '1000',
  TRAMITA_RATE_LIMITS: 'lookup=100000/60s,search=100000/60s,monitor=100000/60s,account=100000/60s,download=100000/60s',
};
const h = await createHarness({ env: ENV });
test.after(() => h.close());
const sandbox = h.sources.sandbox!;
const db = h.services.db;

const get = (acc: TestAccount, url: string) => h.inject({ method: 'GET', url, headers: acc.headers });
const epochDay = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

async function charged(acc: TestAccount): Promise<number[]> {
  const rows = await db
    .selectFrom('ledger')
    .select('delta_centavos')
    .where('account_id', '=', acc.accountId)
    .where('kind', '=', 'debit')
    .orderBy('created_at')
    .execute();
  return rows.map((r) => Math.abs(Number(r.delta_centavos)));
}

function assertError(res: { statusCode: number; body: string }, status: number, code: string): void {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(json(res as never).error.code, code);
}

// First: monitors hear only publications new to the store, and later tests read today's STF.
test("a monitor with fontes [STF] hears today's STF publication naming its OAB", async () => {
  const today = h.capabilities.gazettes.today();
  const items = sandbox.stf.gazette.day(epochDay(today));
  if (items.length === 0) return; // weekends have no divulgação
  // The last OAB the STF lists for a lawyer: in an `OAB's (…)` list, maybe with its letter.
  const lawyer = items.flatMap((i) => i.envolvidos).find((e) => e.identificacoes.length > 0)!;
  const oab = parseOabList(lawyer.identificacoes[0]).oabs.at(-1)!.canonical;
  const acc = await h.createAccount({ credits: 10_000 });
  const res = await h.inject({ method: 'POST', url: '/v1/monitoramentos/publicacoes', headers: acc.headers, payload: { oab, fontes: ['STF'] } });
  assert.equal(res.statusCode, 201, res.body);
  await h.capabilities.gazettes.ensure('STF', { inicio: today, fim: today }, { refreshToday: true });
  const events = json(await get(acc, '/v1/eventos?limit=100')).data.items;
  assert.ok(events.length > 0);
  assert.ok(events.every((e: any) => e.event === 'publicacao_judicial_nova' && e.data.tribunal === 'STF'));
});

// ---- STF --------------------------------------------------------------------------------------------

test('STF: a search for a sandbox party finds its publications (charged once); one publication without and with its HTML (R$ 0,05 each)', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const day = lastBusinessDay(h);
  const item = sandbox.stf.gazette.day(epochDay(day))[0];
  const parte = item.envolvidos[0].nome;
  const res = await get(acc, `/v1/stf/publicacoes?parte=${encodeURIComponent(parte.toLowerCase())}&data_inicio=${day}&data_fim=${day}`);
  assert.equal(res.statusCode, 200, res.body);
  const data = json(res).data;
  assert.deepEqual(data.periodo, { inicio: day, fim: day });
  const found = data.items.find((p: any) => p.id === String(item.id));
  assert.ok(found, "the party's publication is found, whatever the case of the name");
  assert.deepEqual(
    [found.processo, found.tipo, found.relator, found.dataDivulgacao, found.fonte, found.sandbox],
    [item.processo, item.tipo, item.relator, day, 'STF', true],
  );
  assert.equal(found.html, undefined);
  assert.ok(!found.texto.includes('<'), 'plain text');
  assert.deepEqual(await charged(acc), [5]);

  const plain = json(await get(acc, `/v1/stf/publicacoes/${item.id}`)).data;
  assert.equal(plain.html, undefined);
  assert.deepEqual(
    plain.envolvidos.map((e: any) => e.nome),
    item.envolvidos.map((e) => e.nome),
  );
  const withHtml = json(await get(acc, `/v1/stf/publicacoes/${item.id}?incluir_html=true`)).data;
  assert.equal(withHtml.html, item.texto, 'the HTML as the STF wrote it');
  assert.deepEqual(await charged(acc), [5, 5, 5]);

  assertError(await get(acc, '/v1/stf/publicacoes/999999999'), 404, 'PUBLICATION_NOT_FOUND');
  assert.deepEqual(await charged(acc), [5, 5, 5], 'not found is free');
});

test('STF: a lawyer is found by OAB in every spelling, and a process by its number; no criterion lists the period', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const day = await ingestDay(h, 'STF');
  const item = sandbox.stf.gazette.day(epochDay(day)).find((i) => i.envolvidos.some((e) => e.identificacoes.length > 0))!;
  const { uf, numero, canonical } = parseOabList(item.envolvidos.find((e) => e.identificacoes.length > 0)!.identificacoes[0]).oabs[0];
  const spellings = [canonical, `${numero}/${uf}`, `OAB/${uf} ${Number(numero).toLocaleString('pt-BR')}`, `0${numero}/${uf}`];
  for (const oab of spellings) {
    const items = json(await get(acc, `/v1/stf/publicacoes?oab=${encodeURIComponent(oab)}&data_inicio=${day}&data_fim=${day}`)).data.items;
    assert.ok(
      items.some((p: any) => p.id === String(item.id)),
      oab,
    );
    assert.ok(
      items.every((p: any) => p.advogados.some((a: any) => a.oabs.includes(canonical))),
      `${oab}: only that lawyer's`,
    );
  }
  const byProcess = json(await get(acc, `/v1/stf/publicacoes?processo=${encodeURIComponent(item.processo)}&data_inicio=${day}&data_fim=${day}`)).data.items;
  assert.ok(byProcess.some((p: any) => p.id === String(item.id)));
  const all = json(await get(acc, `/v1/stf/publicacoes?data_inicio=${day}&data_fim=${day}&limit=100`)).data;
  assert.equal(all.items.length, sandbox.stf.gazette.day(epochDay(day)).length, 'the whole day, once each');
  assert.deepEqual(json(await get(acc, '/v1/stf/publicacoes?oab=XX1')).error?.code, 'INVALID_OAB');
});

// ---- DJE eleitoral -------------------------------------------------------------------------------------

test("DJE: last week's TSE editions (R$ 0,12), one downloaded as a real PDF, its matérias searchable by OAB and readable one by one", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const res = await get(acc, '/v1/dje-eleitoral/edicoes?tribunal=tse');
  assert.equal(res.statusCode, 200, res.body);
  const { edicoes, tribunal, periodo } = json(res).data;
  assert.equal(tribunal, 'TSE');
  assert.equal(periodo.fim, h.capabilities.gazettes.today());
  // Every edition the court published in the period, as many as its calendar had (a week after Carnival has three).
  const published = eachDay(periodo).flatMap((d) => sandbox.dje.gazette.editions('TSE', epochDay(d)).map((e) => e.numero));
  assert.ok(published.length > 0, 'the sandbox published in the last week');
  assert.deepEqual(edicoes.map((e: any) => e.numero).sort(), published.sort());
  assert.ok(
    edicoes.every((e: any) => e.tribunal === 'TSE' && e.id === `TSE:${e.numero}` && e.publicacoes > 0 && new Date(`${e.data}T12:00:00Z`).getUTCDay() % 6 !== 0),
  );
  assert.deepEqual(await charged(acc), [12]);

  // The newest edition with a matéria whose first party has a lawyer with an OAB: the data chooses it,
  // not the calendar (a week's editions may have none).
  const withOab = (numero: number) => sandbox.dje.gazette.edition('TSE', numero)!.materias.find((m) => m.partes[0]?.advogados.some((a) => a.oab));
  const edition = edicoes.find((e: any) => withOab(e.numero));
  assert.ok(edition, "a week's editions name at least one lawyer by OAB");
  const pdf = await get(acc, `/v1/dje-eleitoral/edicoes/${edition.id}/pdf`);
  assert.equal(pdf.statusCode, 200);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  const lines = await pdfLines(new Uint8Array(pdf.rawPayload));
  assert.match(lines[0].text, /DIÁRIO DA JUSTIÇA ELETRÔNICO DO TSE/);
  assert.deepEqual(await charged(acc), [12, 5]);

  const materia = withOab(edition.numero)!;
  const oab = materia.partes[0].advogados.find((a) => a.oab)!.oab!;
  const search = json(
    await get(acc, `/v1/dje-eleitoral/publicacoes?tribunal=TSE&oab=${encodeURIComponent(oab)}&data_inicio=${edition.data}&data_fim=${edition.data}`),
  ).data;
  const hit = search.items.find((p: any) => p.numeroProcesso === materia.numeroCnj)!;
  assert.ok(hit, 'the matéria naming that OAB');
  assert.deepEqual(
    [hit.tribunal, hit.edicao.id, hit.classe, hit.partes[0].nome],
    ['TSE', edition.id, materia.classe.replace(/ \(\d+\)$/, ''), materia.partes[0].nome],
  );
  const one = json(await get(acc, `/v1/dje-eleitoral/publicacoes/${encodeURIComponent(hit.id)}`)).data;
  assert.equal(one.id, hit.id);
  assert.match(one.texto, /PROCESSO : /);
  assert.equal(one.dataPublicacao > edition.data, true, 'PUBLICAÇÃO EM: the business day after the edition');
  assert.deepEqual(await charged(acc), [12, 5, 5, 5]);
  assertError(await get(acc, '/v1/dje-eleitoral/publicacoes/TSE:1:1'), 404, 'PUBLICATION_NOT_FOUND');
  assertError(await get(acc, '/v1/dje-eleitoral/edicoes/TSE:1/pdf'), 404, 'EDITION_NOT_FOUND');
  assert.deepEqual(await charged(acc), [12, 5, 5, 5]);
});

test(
  'periods and courts are checked before any upstream call and never charged: malformed date 400, inverted or over 62 ' +
    'days 422, a court that is not TSE/TRE-UF 400',
  async () => {
    const acc = await h.createAccount({ credits: 1000 });
    sandbox.resetStats();
    const cases: [string, number, string][] = [
      ['/v1/dje-eleitoral/edicoes?tribunal=TSE&data_inicio=2026-02-30', 400, 'INVALID_DATE'],
      ['/v1/dje-eleitoral/edicoes?tribunal=TSE&data_inicio=10/03/2026', 400, 'INVALID_DATE'],
      ['/v1/dje-eleitoral/edicoes?tribunal=TSE&data_inicio=2026-03-10&data_fim=2026-03-09', 422, 'PERIOD_INVERTED'],
      ['/v1/dje-eleitoral/edicoes?tribunal=TSE&data_inicio=2026-01-01&data_fim=2026-03-04', 422, 'PERIOD_TOO_LONG'],
      ['/v1/dje-eleitoral/edicoes?tribunal=TRE-XX', 400, 'INVALID_ELECTORAL_COURT'],
      ['/v1/dje-eleitoral/edicoes?tribunal=TRF-SP', 400, 'INVALID_ELECTORAL_COURT'],
      ['/v1/dje-eleitoral/edicoes', 400, 'MISSING_PARAMETER'],
      ['/v1/dje-eleitoral/publicacoes?tribunal=TJSP', 400, 'INVALID_ELECTORAL_COURT'],
      ['/v1/stf/publicacoes?data_fim=2026-13-01', 400, 'INVALID_DATE'],
      ['/v1/stf/publicacoes?data_inicio=2025-01-01&data_fim=2025-12-31', 422, 'PERIOD_TOO_LONG'],
    ];
    for (const [url, status, code] of cases) assertError(await get(acc, url), status, code);
    // 62 days to read: on a loaded machine past the window, so its final answer is the one checked.
    const inside = await h.settle(await get(acc, '/v1/dje-eleitoral/edicoes?tribunal=TRE-SP&data_inicio=2026-01-01&data_fim=2026-03-03'), acc.headers);
    assert.equal(inside.statusCode, 200, '62 days is allowed');
    assert.deepEqual(await charged(acc), [12]);
    // Only the allowed listing reached the simulators.
    const stats = sandbox.stats();
    assert.equal(stats.stf.requests, 0);
    assert.ok(stats.dje.requests > 0);
  },
);

test('every fault of the sources is an uncharged documented error, and the day stays unread until the source answers', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const day = '2026-02-02';
  const url = `/v1/stf/publicacoes?data_inicio=${day}&data_fim=${day}`;
  const faults: [() => void, number, string][] = [
    [() => sandbox.faults.set({ upstream: 'stf', status: 503 }), 503, 'SOURCE_UNAVAILABLE'],
    [() => sandbox.faults.set({ upstream: 'stf', status: 429, retryAfterSeconds: 1 }), 503, 'SOURCE_UNAVAILABLE'],
    [() => sandbox.faults.set({ upstream: 'stf', malformed: true }), 503, 'SOURCE_UNAVAILABLE'],
    [() => sandbox.faults.set({ upstream: 'stf', hang: true }), 504, 'SOURCE_TIMEOUT'],
    [() => sandbox.stf.knobs.set({ wafChallenge: true }), 503, 'SOURCE_UNAVAILABLE'],
  ];
  for (const [apply, status, code] of faults) {
    apply();
    try {
      const res = await get(acc, url);
      assertError(res, status, code);
      assert.equal(json(res).error.details.source, 'stf');
    } finally {
      sandbox.faults.reset();
      sandbox.stf.knobs.reset();
    }
  }
  assert.equal(await db.selectFrom('gazette_days').select('dia').where('fonte', '=', 'STF').where('dia', '=', day).executeTakeFirst(), undefined);

  sandbox.faults.set({ upstream: 'dje', status: 502 });
  try {
    assertError(await get(acc, `/v1/dje-eleitoral/edicoes?tribunal=TRE-RJ&data_inicio=${day}&data_fim=${day}`), 503, 'SOURCE_UNAVAILABLE');
  } finally {
    sandbox.faults.reset();
  }
  await ingestDay(h, 'TRE-RJ', day);
  const edition = await db.selectFrom('gazette_editions').select('id').where('tribunal', '=', 'TRE-RJ').where('data', '=', day).executeTakeFirstOrThrow();
  sandbox.dje.set({ truncatePdf: true });
  try {
    assertError(await get(acc, `/v1/dje-eleitoral/edicoes/${edition.id}/pdf`), 503, 'SOURCE_UNAVAILABLE');
  } finally {
    sandbox.dje.reset();
  }
  assert.deepEqual(await charged(acc), []);
  assert.equal((await get(acc, url)).statusCode, 200, 'once the source answers, the day is read');
});

test('two searches of the same unread day at once: both answer, the day is read once, each publication stored once', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const day = '2026-02-03';
  sandbox.resetStats();
  const url = `/v1/stf/publicacoes?data_inicio=${day}&data_fim=${day}&limit=100`;
  const [a, b] = await Promise.all([get(acc, url), get(acc, url)]);
  assert.deepEqual([a.statusCode, b.statusCode], [200, 200], `${a.body} ${b.body}`);
  assert.deepEqual(
    json(a).data.items.map((p: any) => p.id),
    json(b).data.items.map((p: any) => p.id),
  );
  const rows = await db.selectFrom('publications').select('id').where('fonte', '=', 'STF').where('data_disponibilizacao', '=', day).execute();
  assert.equal(rows.length, sandbox.stf.gazette.day(epochDay(day)).length);
  assert.ok(sandbox.stats().stf.requests <= 3, 'one handshake and one page (a session may be opened again), not two reads');
});

test("the background ingest reads the configured gazettes' missing days once (resumable, idempotent) and logs what it did", async () => {
  const h2 = await createHarness({ env: { ...ENV, TRAMITA_GAZETTE_COURTS: 'STF,TRE-MG', TRAMITA_GAZETTE_BACKFILL_DAYS: '3' } });
  try {
    const sb = h2.sources.sandbox!;
    await h2.runJobs();
    const days = await h2.services.db.selectFrom('gazette_days').selectAll().orderBy('fonte').orderBy('dia').execute();
    assert.deepEqual([...new Set(days.map((d) => d.fonte))], ['STF', 'TRE-MG']);
    assert.equal(days.filter((d) => d.fonte === 'STF').length, 4, 'three days back and today');
    const count = async () =>
      Number(
        (
          await h2.services.db
            .selectFrom('publications')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const stored = await count();
    assert.equal(
      stored,
      days.reduce((n, d) => n + d.publicacoes, 0),
    );
    sb.resetStats();
    await h2.services.jobs.enqueue({ kind: GAZETTE_INGEST_JOB, payload: {} }).catch(() => undefined);
    await h2.runJobs();
    assert.equal(await count(), stored, 'nothing stored twice');
    assert.ok(sb.stats().stf.requests <= 3, 'only today is read again');
  } finally {
    await h2.close();
  }
});

// ---- monitors -------------------------------------------------------------------------------------------

test(
  'a publication monitor on an OAB with fontes [TRE-SP] receives, signed, the ' + 'next electoral publication naming it; one watching DJEN only does not',
  async () => {
    const rx = await receiver();
    try {
      const acc = await h.createAccount({ credits: 10_000 });
      const secret = json(await get(acc, '/v1/conta/webhook')).data.segredo;
      const oab = 'SP987654';
      const create = (body: object) => h.inject({ method: 'POST', url: '/v1/monitoramentos/publicacoes', headers: acc.headers, payload: body });
      const electoral = await create({ oab, fontes: ['tre-sp', 'STF'], webhook_url: rx.url });
      assert.equal(electoral.statusCode, 201, electoral.body);
      assert.deepEqual(json(electoral).data.fontes, ['STF', 'TRE-SP']);
      assertError(await create({ termo: 'qualquer coisa', fontes: ['TJSP'] }), 400, 'INVALID_PARAMETER');
      const other = await h.createAccount({ credits: 10_000 });
      const djenOnly = await h.inject({ method: 'POST', url: '/v1/monitoramentos/publicacoes', headers: other.headers, payload: { oab, fontes: ['DJEN'] } });
      assert.equal(djenOnly.statusCode, 201, djenOnly.body);

      const published = sandbox.dje.publish({ tribunal: 'TRE-SP', parte: 'CANDIDATO DE TESTE', oab });
      const today = h.capabilities.gazettes.today();
      await h.capabilities.gazettes.ensure('TRE-SP', { inicio: today, fim: today }, { refreshToday: true });
      await h.runJobs();
      assert.equal(rx.received.length, 1, rx.received.map((r) => r.body.event).join());
      const [d] = rx.received;
      assert.equal(d.headers['x-service-event'], 'publicacao_judicial_nova');
      assert.equal(d.headers['x-service-signature'], signature(secret, d.raw));
      assert.equal(d.body.data.numeroCnj, published.numeroProcesso);
      assert.equal(d.body.data.tribunal, 'TRE-SP');
      assert.equal(d.body.data.publicacao.tribunal, 'TRE-SP');
      const heard = json(await get(other, '/v1/eventos?limit=100')).data.items;
      assert.deepEqual(heard, [], 'the DJEN-only monitor heard nothing');

      // Read again: nothing new, no second delivery.
      await h.capabilities.gazettes.ensure('TRE-SP', { inicio: today, fim: today }, { refreshToday: true });
      await h.runJobs();
      assert.equal(rx.received.length, 1);
    } finally {
      await rx.close();
    }
  },
);
