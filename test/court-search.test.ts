/**
 * Searches that reach the courts (issue 32 item 1), through the HTTP surface with every consultation
 * enabled against the sandbox's e-SAJ and PJe simulators: a CPF's cases found by the courts' own
 * searches (e-SAJ's search.do by DOCPARTE, PJe's form by documentoParte), merged with the store and
 * paged, with `meta.fontes` naming the courts asked, answered and failed; a court answering a captcha
 * is listed as failed and the search still answered (one page charge); every court failing with
 * nothing stored is an uncharged 503; the OAB and the party-name searches reach the courts too; a slow
 * fan-out answers through the async window (202, then the status URL).
 * The simulated e-SAJ answers several hits with a hit list built from the README's flow (no capture
 * of a multi-hit e-SAJ list exists). Runs on both engines (DATABASE_URL) for the store merge.
 */
import { after, afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json } from './harness.ts';
import type { SandboxCase } from '../src/sandbox/data/model.ts';
import { parseCnjWithCourt } from '../src/platform/identifiers/cnj.ts';

const h = await createHarness({ env: { TRAMITA_CONSULTAS: 'all', TRAMITA_SANDBOX_CASES: '3000', TRAMITA_RATE_LIMITS: 'search=100000/60s' } });
after(() => h.close());
const sandbox = h.sources.sandbox!;
afterEach(async () => {
  sandbox.consultas.reset();
  sandbox.pje.reset();
  // Each test its own search: no fan-out kept from another (one fan-out per search, issue 43 item 7).
  await h.services.db.deleteFrom('court_searches').execute();
});

const ESAJ = ['TJSP', 'TJAL', 'TJAC'];
const PJE = ['TRF1', 'TRF3', 'TRF5', 'TJMA', 'TJMG', 'TJCE', 'TJAP', 'TJPE', 'TJRJ', 'TJRO'];
const visible = (c: SandboxCase) => sandbox.dataset.visibleCase(c.numero) === c;
const searchable = (c: SandboxCase) =>
  visible(c) && (ESAJ.includes(c.court.sigla) || (PJE.includes(c.court.sigla) && c.court.sistemaAtual === 'PJe')) && c.numero.slice(16) !== '0000';

/** A person (CPF) with visible cases in at least one e-SAJ and one PJe court: the first such, or the one after `skip` others. */
function personInBothSystems(skip = 0): { documento: string; cases: SandboxCase[] } {
  const byDoc = new Map<string, Set<SandboxCase>>();
  for (const c of sandbox.dataset.cases) {
    if (!searchable(c)) continue;
    for (const p of c.partes) {
      if (p.person.documento?.length !== 11) continue;
      byDoc.set(p.person.documento, (byDoc.get(p.person.documento) ?? new Set()).add(c));
    }
  }
  for (const [documento, set] of byDoc) {
    const cases = [...set];
    if (cases.some((c) => ESAJ.includes(c.court.sigla)) && cases.some((c) => PJE.includes(c.court.sigla)) && skip-- === 0) return { documento, cases };
  }
  throw new Error('no person with cases in both systems: raise TRAMITA_SANDBOX_CASES');
}

async function debits(accountId: string): Promise<number> {
  return (await h.services.db.selectFrom('ledger').selectAll().where('account_id', '=', accountId).where('kind', '=', 'debit').execute()).length;
}

const digits = (n: string) => n.replace(/\D/g, '');

test('a CPF search returns the cases the simulated e-SAJ and PJe courts found, with meta.fontes naming the courts asked and answered', async () => {
  const { documento, cases } = personInBothSystems();
  const acc = await h.createAccount({ credits: 1000 });
  const res = await h.inject({ method: 'GET', url: `/v1/processos?cpf_cnpj=${documento}&limit=100`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  const fontes = body.meta.fontes;
  assert.deepEqual([...fontes.consultadas].sort(), [...ESAJ, ...PJE].sort(), 'every enabled court that searches by document; TJDFT offers none');
  assert.deepEqual(fontes.falharam, []);
  assert.deepEqual([...fontes.responderam].sort(), [...fontes.consultadas].sort());
  assert.equal(fontes.limitePorTribunal, 10);
  const listed = new Set(body.data.processos.map((p: { numeroCnj: string }) => digits(p.numeroCnj)));
  for (const c of cases) assert.ok(listed.has(c.numero), `${c.court.sigla} ${c.numero} listed`);
  const byCourt = new Map(fontes.resultados.map((r: { tribunal: string }) => [r.tribunal, r]));
  for (const c of cases) assert.ok((byCourt.get(c.court.sigla) as { detalhados: number }).detalhados >= 1, c.court.sigla);
  assert.equal(new Set(body.data.processos.map((p: { numeroCnj: string }) => p.numeroCnj)).size, body.data.processos.length, 'deduplicated by number');
  assert.equal(await debits(acc.accountId), 1, 'one page, one charge');
});

test('a court answering a captcha is listed as failed; the search is still answered and charged as a page', async () => {
  const { documento, cases } = personInBothSystems();
  sandbox.consultas.set({ challenge: 'captcha', courts: ['TJSP', 'TJAL', 'TJAC'] });
  const acc = await h.createAccount({ credits: 1000 });
  const res = await h.inject({ method: 'GET', url: `/v1/processos?cpf_cnpj=${documento}&limit=100`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  const { fontes } = json(res).meta;
  assert.deepEqual(
    fontes.falharam.map((f: { tribunal: string; falha: string }) => [f.tribunal, f.falha]).sort(),
    [...ESAJ].sort().map((t) => [t, 'captcha']),
  );
  assert.ok(
    fontes.falharam.every((f: { mensagem: string }) => !f.mensagem.includes(documento)),
    'no CPF in the reasons',
  );
  assert.deepEqual([...fontes.responderam].sort(), [...PJE].sort());
  const listed = new Set(json(res).data.processos.map((p: { numeroCnj: string }) => digits(p.numeroCnj)));
  for (const c of cases.filter((x) => PJE.includes(x.court.sigla))) assert.ok(listed.has(c.numero));
  assert.equal(await debits(acc.accountId), 1);
});

test('every court failing while nothing is stored is 503 SOURCE_UNAVAILABLE, uncharged, never an empty 200', async () => {
  sandbox.consultas.set({ challenge: 'captcha' });
  sandbox.pje.set({ antiBot: true });
  const acc = await h.createAccount({ credits: 1000 });
  const nobody = '52998224725';
  const res = await h.inject({ method: 'GET', url: `/v1/processos?cpf_cnpj=${nobody}`, headers: acc.headers });
  assert.equal(res.statusCode, 503, res.body);
  const error = json(res).error;
  assert.equal(error.code, 'SOURCE_UNAVAILABLE');
  assert.ok(error.details.falharam.some((f: { tribunal: string; falha: string }) => f.tribunal === 'TJMA' && f.falha === 'anti_bot'));
  assert.ok(error.details.falharam.some((f: { tribunal: string; falha: string }) => f.tribunal === 'TJSP' && f.falha === 'captcha'));
  assert.equal(await debits(acc.accountId), 0);

  // Courts that answer "nothing" answered: an empty, free 200.
  sandbox.consultas.reset();
  sandbox.pje.reset();
  const empty = await h.inject({ method: 'GET', url: `/v1/processos?cpf_cnpj=${nobody}`, headers: acc.headers });
  assert.equal(empty.statusCode, 200, empty.body);
  assert.deepEqual(json(empty).data.processos, []);
  assert.equal(await debits(acc.accountId), 0);
});

test('an OAB search reaches the e-SAJ and PJe courts: their cases listed with fonte CONSULTA', async () => {
  const c = sandbox.dataset.cases.find((x) => searchable(x) && ESAJ.includes(x.court.sigla) && x.partes.some((p) => p.advogados.some((a) => a.oab)))!;
  const oab = c.partes.flatMap((p) => p.advogados).find((a) => a.oab)!.oab!;
  const acc = await h.createAccount({ credits: 1000 });
  const res = await h.inject({ method: 'GET', url: `/v1/advogados/processos?oab_estado=${oab.uf}&oab_numero=${oab.numero}&limit=100`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.ok(body.meta.fontes.consultadas.includes('TJSP') && body.meta.fontes.consultadas.includes('TJMA'));
  assert.ok(!body.meta.fontes.consultadas.includes('TJDFT'));
  const hit = body.data.processos.find((p: { numeroCnj: string }) => digits(p.numeroCnj) === c.numero);
  assert.ok(hit, 'the e-SAJ case the court listed');
  assert.ok(hit.fontes.includes('CONSULTA'));
});

test("a party's name reaches the e-SAJ courts (PJe is not asked by name) on the first page of a term search", async () => {
  const c = sandbox.dataset.cases.find((x) => searchable(x) && ESAJ.includes(x.court.sigla) && x.partes.some((p) => p.person.nome.split(' ').length >= 2))!;
  const nome = c.partes.find((p) => p.person.nome.split(' ').length >= 2)!.person.nome;
  const acc = await h.createAccount({ credits: 1000 });
  const res = await h.inject({ method: 'GET', url: `/v1/busca/termo?q=${encodeURIComponent(nome)}&limit=100`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual([...body.meta.fontes.consultadas].sort(), [...ESAJ].sort());
  assert.ok(
    body.data.items.some((i: { numeroCnj: string }) => digits(i.numeroCnj) === c.numero),
    'the case the court listed, found in the store after',
  );

  const summary = await h.inject({ method: 'GET', url: `/v1/envolvidos/resumo?nome=${encodeURIComponent(nome)}`, headers: acc.headers });
  assert.equal(summary.statusCode, 200, summary.body);
  assert.deepEqual([...json(summary).meta.fontes.consultadas].sort(), [...ESAJ].sort());
});

test('a search across courts past the window is a 202 whose status URL answers the page with meta.fontes, charged once', async () => {
  const { documento } = personInBothSystems();
  sandbox.faults.set({ upstream: 'consultas', latencyMs: 300 });
  const acc = await h.createAccount({ credits: 1000 });
  try {
    const res = await h.inject({ method: 'GET', url: `/v1/processos?cpf_cnpj=${documento}`, headers: { ...acc.headers, prefer: 'respond-async' } });
    assert.equal(res.statusCode, 202, res.body);
    const url = new URL(json(res).data.statusUrl).pathname;
    let done = await h.inject({ method: 'GET', url, headers: acc.headers });
    for (let i = 0; i < 200 && done.statusCode === 202; i++) {
      await new Promise((r) => setTimeout(r, 50));
      done = await h.inject({ method: 'GET', url, headers: acc.headers });
    }
    assert.equal(done.statusCode, 200, done.body);
    assert.ok(json(done).meta.fontes.responderam.includes('TJSP'));
    assert.equal(await debits(acc.accountId), 1);
  } finally {
    sandbox.faults.reset();
  }
});

/** Requests the courts' simulators (e-SAJ and PJe) received while `run` ran. */
async function courtRequests(run: () => Promise<unknown>): Promise<number> {
  return sum(await requestsPerCourt(run));
}

/** Requests each court's simulator received while `run` ran, by sigla (the simulators' first path segment). */
async function requestsPerCourt(run: () => Promise<unknown>): Promise<Map<string, number>> {
  const count = () => {
    const { consultas, pje } = sandbox.stats();
    const per = new Map<string, number>();
    for (const [segment, n] of [...Object.entries(consultas.bySegment), ...Object.entries(pje.bySegment)])
      per.set(segment.toUpperCase(), (per.get(segment.toUpperCase()) ?? 0) + n);
    return per;
  };
  const before = count();
  await run();
  return new Map([...count()].map(([sigla, n]) => [sigla, n - (before.get(sigla) ?? 0)] as const).filter(([, n]) => n > 0));
}

const sum = (per: Map<string, number>) => [...per.values()].reduce((a, b) => a + b, 0);

/** The numbers whose court page the case-details port was asked for while `run` ran. */
async function pagesAsked(run: () => Promise<unknown>): Promise<string[]> {
  const port = h.services.sources.details!;
  const original = port.fetchDetails;
  const asked: string[] = [];
  port.fetchDetails = (numeroCnj, signal) => {
    asked.push(numeroCnj);
    return original.call(port, numeroCnj, signal);
  };
  try {
    await run();
  } finally {
    port.fetchDetails = original;
  }
  return asked;
}

interface PartyPage {
  data: { processos: { numeroCnj: string }[] };
  meta: { fontes: { consultadas: string[]; resultados: { tribunal: string; listados: number }[] }; pagination: { nextCursor: string; total: number } };
}

test('one fan-out per search: page 2 of a CPF search asks no court again, and each hit is looked up once', async () => {
  const { documento, cases } = personInBothSystems(1);
  const acc = await h.createAccount({ credits: 1000 });
  const get = async (cursor?: string) => {
    const res = await h.inject({
      method: 'GET',
      url: `/v1/processos?cpf_cnpj=${documento}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      headers: acc.headers,
    });
    assert.equal(res.statusCode, 200, res.body);
    return json<PartyPage>(res);
  };
  // What the search pages alone cost at each court: a CPF nobody has.
  const searchPages = await requestsPerCourt(() => h.inject({ method: 'GET', url: '/v1/processos?cpf_cnpj=11144477735', headers: acc.headers }));
  const searchOnly = sum(searchPages);
  let first!: PartyPage;
  let perCourt = new Map<string, number>();
  const asked = await pagesAsked(async () => {
    perCourt = await requestsPerCourt(async () => {
      first = await get();
    });
  });
  const page1 = sum(perCourt);
  // Each court: its search pages plus one request per hit (the page its row links, on the search's session), never the ~3 of a
  // lookup by number (form, number search, page). e-SAJ's single hit is the search's own answer (its 302 followed): that one request.
  for (const r of first.meta.fontes.resultados) {
    const spent = perCourt.get(r.tribunal) ?? 0;
    const pages = searchPages.get(r.tribunal) ?? 0;
    assert.ok(pages > 0, `${r.tribunal} was searched`);
    assert.ok(spent <= pages + r.listados, `${r.tribunal}: ${spent} requests for ${r.listados} hits (search pages ${pages})`);
  }
  const hits: number = first.meta.fontes.resultados.reduce((n, r) => n + r.listados, 0);
  assert.ok(hits >= cases.length && hits >= 2, `${hits} hits`);
  assert.equal(new Set(asked).size, asked.length, `each hit's page asked once: ${asked.join(', ')}`);
  const atCourts = asked.filter((n) => first.meta.fontes.consultadas.includes(parseCnjWithCourt(n).court.sigla));
  assert.ok(atCourts.length <= hits, `${atCourts.length} court pages for ${hits} hits`);
  console.log(
    `court requests of a CPF search at ${first.meta.fontes.consultadas.length} courts: search pages ${searchOnly}, page 1 ${page1} for ${hits} hits ` +
      `(${[...perCourt].map(([c, n]) => `${c} ${n}`).join(', ')})`,
  );

  let second!: PartyPage;
  const page2 = await courtRequests(async () => {
    second = await get(first.meta.pagination.nextCursor);
  });
  assert.equal(page2, 0, 'page 2 reads what the fan-out of page 1 found');
  assert.deepEqual(second.meta.fontes, first.meta.fontes, 'the same fan-out, named the same');
  assert.notEqual(second.data.processos[0].numeroCnj, first.data.processos[0].numeroCnj);
  assert.equal(second.meta.pagination.total, first.meta.pagination.total);

  // Past the keep window (TRAMITA_COURT_SEARCH_KEEP_MINUTES, 10 by default) the search asks the courts again; its cases, stored
  // fresh, cost nothing more.
  const longAgo = new Date(h.services.clock.now().getTime() - 11 * 60_000).toISOString();
  await h.services.db.updateTable('court_searches').set({ feita_em: longAgo }).execute();
  let again = 0;
  const askedAgain = await pagesAsked(async () => {
    again = await courtRequests(() => get());
  });
  assert.deepEqual(askedAgain, [], 'no case looked up again: every hit is stored fresh');
  assert.ok(again > 0 && again < page1, `the search pages again (${again}), not its hits' pages`);
});

test("one lookup pass: a CPF search's court hits and the provider's other cases are asked of DataJud in one batch", async () => {
  // A person with cases in the searched courts and elsewhere (which only the provider lists), none of them stored yet.
  const searched = (c: SandboxCase) => ESAJ.includes(c.court.sigla) || PJE.includes(c.court.sigla);
  let person: { documento: string; cases: SandboxCase[] } | undefined;
  for (let skip = 2; !person; skip++) {
    const p = personInBothSystems(skip);
    if (sandbox.dataset.casesByDocument(p.documento).some((c) => !searched(c) && visible(c))) person = p;
  }
  const port = h.services.sources.cases;
  const original = port.fetchCases;
  const batches: number[] = [];
  port.fetchCases = (numeros, signal) => {
    batches.push(numeros.length);
    return original.call(port, numeros, signal);
  };
  const acc = await h.createAccount({ credits: 1000 });
  try {
    const res = await h.inject({ method: 'GET', url: `/v1/processos?cpf_cnpj=${person.documento}&limit=100`, headers: acc.headers });
    assert.equal(res.statusCode, 200, res.body);
    const body = json<PartyPage>(res);
    const fromCourts = body.meta.fontes.resultados.reduce((n, r) => n + r.listados, 0);
    assert.ok(fromCourts > 0 && body.meta.pagination.total > fromCourts, `${fromCourts} court hits of ${body.meta.pagination.total} cases`);
  } finally {
    port.fetchCases = original;
  }
  assert.equal(batches.length, 1, `DataJud batches: ${batches.join(', ')}`);
});
