/**
 * A silent source never holds the answer (issue 51), through HTTP: with DJEN a black hole (a loopback
 * stand-in that accepts connections and never answers) and DataJud answering at once, a first lookup
 * answers 200 with DataJud's fields and `enriquecimento` saying what is pending, ten at once likewise,
 * each with one request to DJEN (no retry while a caller waits); after TRAMITA_SOURCE_FAILING_AFTER
 * timeouts DJEN is failing: lookups no longer ask it but once per probe period (claimed in the shared
 * store), its changes are one log line each, and the metric, `/v1/integrador` and the console show it;
 * it is healthy again at its first answer. A court page answering after a minute: 200 with DataJud's
 * fields, the parties later as `atualizacao_processo_concluida`. A CPF search with a court host silent:
 * the other courts' hits, the silent court in `meta.fontes.falharam`. A DJEN answering 503: one attempt
 * on the request path, the retries in the background job. Short deadlines keep the test short; the
 * asserts are on counts and states, never durations. Both engines (DATABASE_URL).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createHarness, json, type Harness } from './harness.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { testNow } from './test-date.ts';
import { ENRICH_JOB } from '../src/capabilities/processes/refresh.ts';

type Mode = 'silent' | 'answer' | '503';

/** A DJEN stand-in on loopback: silent (accepts, never answers), an empty answer, or 503; counts requests. */
async function djenStandIn() {
  const sockets = new Set<Socket>();
  const state = { mode: 'silent' as Mode, requests: 0 };
  const server = http.createServer((_req, res) => {
    state.requests++;
    if (state.mode === 'silent') return;
    if (state.mode === '503') return res.writeHead(503).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'success', message: '', count: 0, items: [] }));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A court host that accepts connections and never answers. */
async function silentHost() {
  const sockets = new Set<Socket>();
  const seen = { requests: 0 };
  const server = http.createServer(() => {
    seen.requests++;
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    seen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const PROBE_MS = 60_000;
const FAST = {
  TRAMITA_AUXILIARY_DEADLINE_MS: '400',
  TRAMITA_SOURCE_FAILING_AFTER: '3',
  TRAMITA_SOURCE_PROBE_MS: String(PROBE_MS),
  TRAMITA_RATE_LIMITS: 'lookup=100000/60s,async=100000/60s,search=100000/60s,monitor=100000/60s',
};

/** Visible sandbox cases outside TJSP (whose parties, with the provider on TJSP only and no consultation, are DJEN's addressees). */
function casesOutsideTjsp(h: Harness) {
  const now = h.services.clock.now().getTime();
  const used = new Set<string>();
  return () => {
    const c = h.sources.sandbox!.dataset.cases.find((x) => !used.has(x.numero) && x.filedAt <= now && x.court.datajudAlias && x.court.sigla !== 'TJSP');
    assert.ok(c, 'a visible sandbox case outside TJSP');
    used.add(c.numero);
    return c;
  };
}

const cover = (h: Harness, numero: string, headers: Record<string, string>) => h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}`, headers });

async function metric(h: Harness, series: string): Promise<number | null> {
  const line = (await h.inject({ method: 'GET', url: '/metrics' })).body.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : null;
}

function stateLines(h: Harness, source: string): string[] {
  return h.logs
    .map((l) => JSON.parse(l) as { msg: string; source?: string; to?: string })
    .filter((l) => l.source === source && l.msg.startsWith(`upstream ${source} is `))
    .map((l) => l.to!);
}

test('DJEN a black hole: first lookups 200 with pending parts, one request each; failing, skipped but once per probe period; heals', async () => {
  const djen = await djenStandIn();
  const clock = new ManualClock(testNow());
  const h = await createHarness({
    clock,
    captureLogs: true,
    env: { ...FAST, DJEN_URL: djen.url, TRAMITA_PORTAL_TRIBUNAIS: 'TJSP', TRAMITA_CONSULTAS: 'none' },
  });
  try {
    const acc = await h.createAccount({ credits: 10_000 });
    const next = casesOutsideTjsp(h);

    // The first lookup: DataJud's fields, the parts DJEN would give pending, one request to DJEN.
    const c = next();
    const first = await cover(h, c.numero, acc.headers);
    assert.equal(first.statusCode, 200, first.body);
    const d = json(first).data;
    assert.equal(d.numeroCnjDigitos, c.numero);
    assert.equal(d.instancias.length, c.instances.length, "DataJud's cover is whole");
    assert.equal(d.partes, null);
    assert.equal(d.enriquecimento.status, 'AGENDADO');
    assert.deepEqual(d.enriquecimento.pendentes, ['partes', 'advogados', 'valorCausa']);
    assert.deepEqual([d.enriquecimento.falha.code, d.enriquecimento.falha.failure], ['SOURCE_TIMEOUT', 'timeout']);
    assert.equal(djen.state.requests, 1, 'one attempt while the caller waits');
    const jobs = await h.services.db.selectFrom('jobs').select('payload').where('kind', '=', ENRICH_JOB).execute();
    assert.ok(
      jobs.some((j) => JSON.parse(j.payload).numeroCnj === c.numero),
      'the enrichment goes on in the background',
    );

    // Ten at once: each 200 with DataJud's fields, each one request to DJEN.
    const ten = Array.from({ length: 10 }, () => next());
    const answers = await Promise.all(ten.map((x) => cover(h, x.numero, acc.headers)));
    for (const [i, res] of answers.entries()) {
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).data.numeroCnjDigitos, ten[i]!.numero);
      assert.equal(json(res).data.enriquecimento.status, 'AGENDADO');
    }
    // At most one request each (those waiting for DJEN's in-flight slots are cut at the deadline unsent).
    const asked = djen.state.requests;
    assert.ok(asked >= 3 && asked <= 11, `at most one request per lookup, no retry ladder (${asked})`);

    // Timeouts in a row: failing, said once per change.
    assert.deepEqual(stateLines(h, 'djen'), ['degraded', 'failing']);
    assert.equal(await metric(h, 'tramita_upstream_health{source="djen"}'), 2);
    const integradorRes = await h.inject({ method: 'GET', url: '/v1/integrador', headers: acc.headers });
    assert.equal(integradorRes.statusCode, 200, integradorRes.body);
    const integrador = json(integradorRes).data;
    assert.equal(integrador.fontes.find((f: { nome: string }) => f.nome === 'DJEN').saude, 'falhando');
    assert.equal(integrador.fontes.find((f: { nome: string }) => f.nome === 'DataJud').saude, 'saudavel');
    assert.equal(integrador.items.find((x: { sigla: string }) => x.sigla === 'TJMG').origens.saude.djen, 'falhando');
    const row = await h.services.db.selectFrom('source_health').selectAll().where('fonte', '=', 'djen').executeTakeFirstOrThrow();
    assert.equal(row.estado, 'failing', 'shared with the other processes');

    // Failing: lookups answer at once without asking it, within the probe period.
    for (let i = 0; i < 4; i++) {
      const res = await cover(h, next().numero, acc.headers);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).data.enriquecimento.falha.source, 'djen');
    }
    assert.equal(djen.state.requests, asked, 'a failing source is not asked within its probe period');

    // A probe period later: asked once (by a lookup or the prober), however many lookups.
    clock.advance(PROBE_MS * 1.25);
    await Promise.all(Array.from({ length: 4 }, () => cover(h, next().numero, acc.headers)));
    assert.equal(djen.state.requests, asked + 1, 'asked once in the new probe period');
    assert.deepEqual(stateLines(h, 'djen'), ['degraded', 'failing'], 'still failing: no new line');

    // It answers again: healthy at its first answer, one line, the metric back to 0.
    djen.state.mode = 'answer';
    clock.advance(PROBE_MS * 1.25);
    const healed = await cover(h, next().numero, acc.headers);
    assert.equal(healed.statusCode, 200, healed.body);
    assert.equal(djen.state.requests, asked + 2);
    assert.deepEqual(stateLines(h, 'djen'), ['degraded', 'failing', 'healthy']);
    assert.equal(await metric(h, 'tramita_upstream_health{source="djen"}'), 0);
    assert.equal(json(healed).data.enriquecimento.status, 'CONCLUIDO', 'DJEN answered: nothing pending');
  } finally {
    await h.close();
    await djen.close();
  }
});

test('DJEN answering 503: one attempt while the caller waits, the retries in the background job', async () => {
  const djen = await djenStandIn();
  djen.state.mode = '503';
  const h = await createHarness({ env: { ...FAST, DJEN_URL: djen.url, TRAMITA_PORTAL_TRIBUNAIS: 'TJSP', TRAMITA_CONSULTAS: 'none' } });
  try {
    const acc = await h.createAccount({ credits: 1000 });
    const c = casesOutsideTjsp(h)();
    const res = await cover(h, c.numero, acc.headers);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([json(res).data.enriquecimento.falha.source, json(res).data.enriquecimento.falha.failure], ['djen', 'unavailable']);
    assert.equal(djen.state.requests, 1, 'no retry ladder on the request path');
    await h.runJobs();
    assert.ok(djen.state.requests > 2, `the background job retries (${djen.state.requests} requests)`);
  } finally {
    await h.close();
    await djen.close();
  }
});

test("a court's page answering after a minute: 200 with DataJud's fields at the deadline; the parties later, as an event to the case's monitor", async () => {
  const h = await createHarness({ env: { ...FAST, TRAMITA_CONSULTAS: 'TJSP' } });
  const sandbox = h.sources.sandbox!;
  try {
    const acc = await h.createAccount({ credits: 1000 });
    const now = h.services.clock.now().getTime();
    const c = sandbox.dataset.cases.find(
      (x) => x.filedAt <= now && x.court.sigla === 'TJSP' && x.partes.length > 0 && sandbox.dataset.visibleCase(x.numero) === x,
    );
    assert.ok(c, 'a visible TJSP case with parties');
    const watch = await h.inject({ method: 'POST', url: '/v1/monitoramentos/processos', headers: acc.headers, payload: { numero_cnj: c.numero } });
    assert.equal(watch.statusCode, 201, watch.body);
    await h.services.db.deleteFrom('cases').where('numero_cnj', '=', c.numero).execute();
    sandbox.faults.set({ upstream: 'consultas', latencyMs: 60_000 });
    let res: Awaited<ReturnType<typeof cover>>;
    try {
      res = await cover(h, c.numero, acc.headers);
    } finally {
      sandbox.faults.reset();
    }
    assert.equal(res.statusCode, 200, res.body);
    const d = json(res).data;
    assert.equal(d.numeroCnjDigitos, c.numero);
    assert.equal(d.partes, null);
    assert.equal(d.enriquecimento.status, 'AGENDADO');
    assert.equal(d.enriquecimento.falha.failure, 'timeout');

    await h.runJobs();
    const events = await h.services.db
      .selectFrom('account_events')
      .innerJoin('domain_events', 'domain_events.id', 'account_events.event_id')
      .select('domain_events.data')
      .where('account_events.account_id', '=', acc.accountId)
      .where('domain_events.kind', '=', 'atualizacao_processo_concluida')
      .where('domain_events.numero_cnj', '=', c.numero)
      .execute();
    assert.equal(events.length, 1, 'the parties arrive as an event');
    assert.equal(JSON.parse(events[0]!.data).motivo, 'PARTES');
    assert.ok(json(await cover(h, c.numero, acc.headers)).data.partes.length > 0);
  } finally {
    await h.close();
  }
});

test("a CPF search with a court's host silent: the other courts' hits, the silent court in meta.fontes.falharam", async () => {
  const tjsp = await silentHost();
  const h = await createHarness({
    env: { ...FAST, TRAMITA_AUXILIARY_DEADLINE_MS: '1500', TRAMITA_CONSULTAS: 'all', TRAMITA_CONSULTA_TJSP_URL: tjsp.url, TRAMITA_SANDBOX_CASES: '3000' },
  });
  const sandbox = h.sources.sandbox!;
  try {
    const PJE = ['TRF1', 'TRF3', 'TRF5', 'TJMA', 'TJMG', 'TJCE', 'TJAP', 'TJPE', 'TJRJ', 'TJRO'];
    const byDoc = new Map<string, Set<string>>();
    for (const c of sandbox.dataset.cases) {
      if (sandbox.dataset.visibleCase(c.numero) !== c || !PJE.includes(c.court.sigla) || c.court.sistemaAtual !== 'PJe' || c.numero.slice(16) === '0000')
        continue;
      for (const p of c.partes)
        if (p.person.documento?.length === 11) byDoc.set(p.person.documento, (byDoc.get(p.person.documento) ?? new Set()).add(c.numero));
    }
    const [documento, numeros] = [...byDoc][0]!;
    const acc = await h.createAccount({ credits: 1000 });
    const res = await h.inject({ method: 'GET', url: `/v1/processos?cpf_cnpj=${documento}&limit=100`, headers: acc.headers });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.ok(tjsp.seen.requests >= 1, 'the silent court was asked');
    assert.deepEqual(
      body.meta.fontes.falharam.map((f: { tribunal: string; falha: string }) => [f.tribunal, f.falha]),
      [['TJSP', 'timeout']],
    );
    assert.ok(body.meta.fontes.responderam.length >= PJE.length, 'the other courts answered');
    const listed = new Set(body.data.processos.map((p: { numeroCnj: string }) => p.numeroCnj.replace(/\D/g, '')));
    for (const n of numeros) assert.ok(listed.has(n), `${n} listed`);
  } finally {
    await h.close();
    await tjsp.close();
  }
});
