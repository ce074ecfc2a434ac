/**
 * The first answer is complete (issue 43), through HTTP against the sandbox: a first cover lookup asks
 * DataJud and the case-details sources at the same time and answers with the parties, lawyers and value;
 * a details source slower than the window gives the usual 202 whose stored answer is complete; a failing
 * one gives DataJud's fields with the failure said (200, charged once, never a 5xx) while the enrichment
 * goes on; `Prefer: return=minimal` answers DataJud's fields at once; a case only its court's page knows
 * is asked of the court while DataJud is still being asked. Parties that arrive after a monitored case's
 * first answer reach its monitors as `atualizacao_processo_concluida`.
 * The TJSP consultation is a stand-in on loopback serving the real e-SAJ page (as test/consultas.test.ts);
 * the other courts' parties come from the sandbox's simulated portal, whose faults the tests turn.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHarness, json, type TestAccount } from './harness.ts';
import { debitRows } from './charges.ts';
import { ENRICH_JOB } from '../src/capabilities/processes/refresh.ts';

const PAGE = readFileSync(new URL('../src/sources/consultas/fixtures/esaj-1.html', import.meta.url));
/** A TJSP number the sandbox's DataJud does not know; the stand-in court answers the real page for it. */
const COURT_ONLY = '1000149-71.2024.8.26.0346';

/** What the stand-in court saw: whether DataJud was still being asked when the court was asked. */
const courtAsked: { datajudPending: boolean }[] = [];

const tjsp = http.createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  if (url.pathname === '/cpopg/open.do')
    return res
      .writeHead(200, { 'set-cookie': 'JSESSIONID=t1', 'content-type': 'text/html;charset=UTF-8' })
      .end('<html><body><form id="formConsulta"></form></body></html>');
  if (url.pathname === '/cpopg/search.do' && url.searchParams.get('dadosConsulta.valorConsultaNuUnificado') === COURT_ONLY) {
    const d = sandbox.stats().datajud;
    courtAsked.push({ datajudPending: d.requests > Object.values(d.responses).reduce((a, b) => a + b, 0) });
    return res.writeHead(302, { location: '/cpopg/show.do?processo.codigo=9M0002CYG0000&processo.foro=346' }).end();
  }
  if (url.pathname === '/cpopg/show.do') return res.writeHead(200, { 'content-type': 'text/html;charset=UTF-8' }).end(PAGE);
  res.writeHead(404).end();
});
await new Promise<void>((r) => tjsp.listen(0, '127.0.0.1', r));

const h = await createHarness({
  env: {
    TRAMITA_CONSULTAS: 'TJSP',
    TRAMITA_CONSULTA_TJSP_URL: `http://127.0.0.1:${(tjsp.address() as AddressInfo).port}`,
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s,async=100000/60s,monitor=100000/60s',
    TRAMITA_POLL_AFTER_MS: '100',
  },
});
after(async () => {
  await h.close();
  tjsp.close();
});
const sandbox = h.sources.sandbox!;

const used = new Set<string>();
/** A visible sandbox case outside TJSP (whose consultation is the stand-in) with a value and parties, not used by another test. */
function freshCase() {
  const now = h.services.clock.now().getTime();
  const c = sandbox.dataset.cases.find(
    (x) => !used.has(x.numero) && x.filedAt <= now && x.court.datajudAlias && x.court.sigla !== 'TJSP' && x.valorCausaCentavos !== null && x.partes.length > 0,
  );
  assert.ok(c, 'a visible sandbox case with a value and parties');
  used.add(c.numero);
  return c;
}

function cover(numero: string, acc: TestAccount, headers: Record<string, string> = {}) {
  return h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}`, headers: { ...acc.headers, ...headers } });
}

/** The account's debits for case covers. */
async function coverDebits(acc: TestAccount) {
  return (await debitRows(h.services.db, acc.accountId)).filter((r) => r.query_type === 'processo.capa');
}

async function enrichJobs(numero: string) {
  return h.services.db.selectFrom('jobs').select('status').where('kind', '=', ENRICH_JOB).where('payload', 'like', `%${numero}%`).execute();
}

/** The `atualizacao_processo_concluida` events the account heard about the case's parties, with the monitor they came through. */
async function partiesNews(acc: TestAccount, numero: string) {
  const rows = await h.services.db
    .selectFrom('account_events')
    .innerJoin('domain_events', 'domain_events.id', 'account_events.event_id')
    .select(['account_events.monitor_id', 'domain_events.data'])
    .where('account_events.account_id', '=', acc.accountId)
    .where('domain_events.kind', '=', 'atualizacao_processo_concluida')
    .where('domain_events.numero_cnj', '=', numero)
    .execute();
  return rows.map((r) => ({ monitorId: r.monitor_id, data: JSON.parse(r.data) }));
}

async function monitor(acc: TestAccount, numero: string): Promise<string> {
  const res = await h.inject({ method: 'POST', url: '/v1/monitoramentos/processos', headers: acc.headers, payload: { numero_cnj: numero } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.id;
}

test('the first lookup answers the parties, lawyers and value with the cover, asked beside DataJud; charged once; no enrichment left to do', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  // DataJud answers slowly: the details source is asked while DataJud's answer is still on its way.
  sandbox.faults.set({ upstream: 'datajud', latencyMs: 1000 });
  const before = sandbox.stats();
  try {
    const pending = cover(c.numero, acc);
    let portalWhileDataJudPending = false;
    for (let i = 0; i < 400; i++) {
      const s = sandbox.stats();
      if (s.portal.requests > before.portal.requests) {
        portalWhileDataJudPending =
          Object.values(s.datajud.responses).reduce((a, b) => a + b, 0) === Object.values(before.datajud.responses).reduce((a, b) => a + b, 0);
        break;
      }
      await sleep(5);
    }
    const res = await pending;
    assert.ok(portalWhileDataJudPending, 'the details source was asked before DataJud answered');
    assert.equal(res.statusCode, 200, res.body);
    const d = json(res).data;
    assert.equal(d.enriquecimento.status, 'CONCLUIDO');
    assert.equal(d.enriquecimento.falha, null);
    assert.equal(d.valorCausaCentavos, c.valorCausaCentavos);
    assert.deepEqual(
      d.partes.map((p: { nome: string }) => p.nome),
      c.partes.map((p) => p.person.nome),
    );
    assert.equal(
      d.partes.flatMap((p: { advogados: unknown[] }) => p.advogados).length,
      c.partes.reduce((n, p) => n + p.advogados.length, 0),
    );
    assert.equal(d.fontes[0].envolvidos.length > 0, true, 'integrators read the parties in fontes[].envolvidos');
  } finally {
    sandbox.faults.reset();
  }
  assert.equal((await coverDebits(acc)).length, 1);
  assert.deepEqual(await enrichJobs(c.numero), [], 'nothing left for the enrichment job');
});

test('a details source slower than the window: 202, then the status URL answers the complete cover, charged once', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  sandbox.faults.set({ upstream: 'portal', latencyMs: 1500 });
  try {
    const res = await cover(c.numero, acc, { prefer: 'wait=1' });
    assert.equal(res.statusCode, 202, res.body);
    const location = new URL(String(res.headers.location)).pathname;
    let final = res;
    for (let i = 0; i < 100 && final.statusCode === 202; i++) {
      await sleep(100);
      final = await h.inject({ method: 'GET', url: location, headers: acc.headers });
    }
    assert.equal(final.statusCode, 200, final.body);
    const d = json(final).data;
    assert.equal(d.enriquecimento.status, 'CONCLUIDO');
    assert.equal(d.valorCausaCentavos, c.valorCausaCentavos);
    assert.equal(d.partes.length, c.partes.length);
  } finally {
    sandbox.faults.reset();
  }
  assert.equal((await coverDebits(acc)).length, 1);
});

test("a failing details source: 200, DataJud's fields and why the parties are missing, charged once; the retried enrichment tells the monitor", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const watcher = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  const monitorId = await monitor(watcher, c.numero);
  sandbox.faults.set({ upstream: 'portal', status: 503 });
  let first: any;
  try {
    const res = await cover(c.numero, acc);
    assert.equal(res.statusCode, 200, res.body);
    first = json(res);
  } finally {
    sandbox.faults.reset();
  }
  const d = first.data;
  assert.equal(d.numeroCnj.replace(/\D/g, ''), c.numero);
  assert.equal(d.instancias.length, c.instances.length, "DataJud's cover is whole");
  assert.equal(d.partes, null);
  assert.equal(d.enriquecimento.status, 'AGENDADO');
  assert.equal(d.enriquecimento.falha.code, 'SOURCE_UNAVAILABLE');
  assert.equal(d.enriquecimento.falha.source, 'portal');
  assert.equal(d.enriquecimento.falha.failure, 'unavailable');
  assert.match(d.enriquecimento.falha.message, /segundo plano/);
  assert.equal(first.meta.creditsCharged, 0.1);
  assert.equal((await coverDebits(acc)).length, 1);
  assert.deepEqual(
    (await enrichJobs(c.numero)).map((j) => j.status),
    ['pending'],
  );
  assert.deepEqual(await partiesNews(watcher, c.numero), []);

  await h.runJobs();
  const later = json(await cover(c.numero, acc)).data;
  assert.equal(later.enriquecimento.status, 'CONCLUIDO');
  assert.equal(later.enriquecimento.falha, null);
  assert.equal(later.partes.length, c.partes.length);
  const news = await partiesNews(watcher, c.numero);
  assert.equal(news.length, 1, JSON.stringify(news));
  assert.equal(news[0].monitorId, monitorId);
  assert.equal(news[0].data.motivo, 'PARTES');
  assert.equal(news[0].data.partes, c.partes.length);
  assert.equal(news[0].data.numeroCnjDigitos, c.numero);
  assert.deepEqual(await partiesNews(acc, c.numero), [], 'the account that looked it up does not monitor it');
  assert.equal((await coverDebits(acc)).length, 2, 'the second cover is its own charge');
});

test("Prefer: return=minimal: DataJud's fields at once, the parties later, announced to the case's monitor", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = freshCase();
  const monitorId = await monitor(acc, c.numero);
  const portalBefore = sandbox.stats().portal.requests;
  const res = await cover(c.numero, acc, { prefer: 'return=minimal' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['preference-applied'], 'return=minimal');
  const d = json(res).data;
  assert.equal(d.partes, null);
  assert.equal(d.enriquecimento.status, 'AGENDADO');
  assert.equal(d.enriquecimento.falha, null);
  assert.equal(sandbox.stats().portal.requests, portalBefore, 'the details source is left to the enrichment job');
  assert.equal((await coverDebits(acc)).length, 1);

  await h.runJobs();
  assert.equal(json(await cover(c.numero, acc)).data.partes.length, c.partes.length);
  const news = await partiesNews(acc, c.numero);
  assert.deepEqual(
    news.map((n) => [n.monitorId, n.data.motivo]),
    [[monitorId, 'PARTES']],
  );
});

test("a case only its court's page knows: the court is asked while DataJud is still being asked; answered with its parties, charged once", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  courtAsked.length = 0;
  sandbox.faults.set({ upstream: 'datajud', latencyMs: 800 });
  let res: Awaited<ReturnType<typeof cover>>;
  try {
    res = await cover(COURT_ONLY, acc);
  } finally {
    sandbox.faults.reset();
  }
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(courtAsked, [{ datajudPending: true }]);
  const d = json(res).data;
  assert.equal(d.tribunal, 'TJSP');
  assert.equal(d.enriquecimento.status, 'CONCLUIDO');
  assert.equal(d.partes.length, 8);
  assert.equal(d.valorCausaCentavos, 8_143_978);
  assert.equal(d.consultaPublica.fonte, 'consulta-tjsp');
  assert.equal((await coverDebits(acc)).length, 1);
});

test("a cover never queues for DJEN's per-minute budget: with it spent, DataJud's fields at once and the addressees asked in the background", async () => {
  // The provider covers TJSP only and no consultation is read: other courts' parties are DJEN's addressees.
  const tight = await createHarness({ env: { TRAMITA_PORTAL_TRIBUNAIS: 'TJSP', TRAMITA_CONSULTAS: 'none', DJEN_REQUESTS_PER_MINUTE: '1' } });
  try {
    const acc = await tight.createAccount({ credits: 1000 });
    const now = tight.services.clock.now().getTime();
    const [a, b] = tight.sources.sandbox!.dataset.cases.filter((c) => c.filedAt <= now && c.court.datajudAlias && c.court.sigla !== 'TJSP');
    const first = await tight.inject({ method: 'GET', url: `/v1/processos/cnj/${a!.numero}`, headers: acc.headers });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(json(first).data.enriquecimento.status, 'CONCLUIDO', "the budget's one request went to the first cover");
    const second = await tight.inject({ method: 'GET', url: `/v1/processos/cnj/${b!.numero}`, headers: acc.headers });
    assert.equal(second.statusCode, 200, second.body);
    const d = json(second).data;
    assert.equal(d.partes, null);
    assert.equal(d.enriquecimento.status, 'AGENDADO');
    assert.deepEqual([d.enriquecimento.falha.source, d.enriquecimento.falha.failure], ['djen', 'rate_limited']);
    const jobs = await tight.services.db.selectFrom('jobs').select('payload').where('kind', '=', ENRICH_JOB).execute();
    assert.deepEqual(
      jobs.map((j) => JSON.parse(j.payload).numeroCnj),
      [b!.numero],
    );
  } finally {
    await tight.close();
  }
});
