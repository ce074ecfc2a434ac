/**
 * New-case radars through HTTP against the sandbox (real connectors on loopback), on an injected
 * clock: the sandbox's future-dated cases become visible as the clock passes their filing, which is
 * how a radar finds something new. Creation and its charge, the baseline, the cycle (checks, events,
 * webhook, renewals, suspension), filters, PATCH, DELETE, results (sync, qualify, archive, by day),
 * tenancy and validation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyRequest } from 'fastify';
import { credit } from '../../platform/billing/ledger.ts';
import type { OperationContext } from '../../platform/http/route.ts';
import { ManualClock } from '../../platform/clock.ts';
import { cnjCheckDigits, formatCnj } from '../../platform/identifiers/cnj.ts';
import { formatCnpj, formatCpf } from '../../platform/identifiers/cpf-cnpj.ts';
import { foldText } from '../../platform/text.ts';
import type { Person, SandboxCase } from '../../sandbox/data/model.ts';
import { createHarness, json, type Harness, type TestAccount } from '../../../test/harness.ts';
import type { StoredCase } from '../processes/store.ts';
import { recordResult } from './check.ts';
import { createRadar } from './create.ts';
import { correspondences, passesFilters, widens, type RadarCriteria } from './match.ts';
import { insertRadar, insertResult } from './testing.ts';

const BASE = '/v1/monitoramentos/novos-processos';
const ENV = {
  TRAMITA_MONITOR_INTERVAL_MS: '1000',
  TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
  TRAMITA_RATE_LIMITS: 'monitor=100000/60s,lookup=100000/60s,search=100000/60s,async=100000/60s,account=100000/60s,download=100000/60s,reference=100000/60s',
};
const PRICE = 500; // monitor.novos_processos in config/prices.json (padrao)
/** The code a change to a deactivated radar answers with (patch.ts: INVALID_PARAMETER until a 422 code is registered). */
const DEACTIVATED = { status: 422, code: 'MONITOR_DEACTIVATED' };

interface World {
  h: Harness;
  clock: ManualClock;
}

async function world(t: TestContext): Promise<World> {
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  const h = await createHarness({ clock, env: ENV });
  t.after(() => h.close());
  return { h, clock };
}

// ---- sandbox ------------------------------------------------------------------------------------

const visibleAt = (c: SandboxCase, ms: number) => c.filedAt <= ms;

/** A case filed after now naming a party that earlier, visible cases name too; the earliest such. */
function futureCaseOf({ h, clock }: World, fits: (p: Person, c: SandboxCase) => boolean, skip: SandboxCase[] = []): { caso: SandboxCase; person: Person } {
  const now = clock.now().getTime();
  const future = h.sources.sandbox!.dataset.cases.filter((c) => c.filedAt > now && !skip.includes(c)).sort((a, b) => a.filedAt - b.filedAt);
  for (const caso of future) {
    for (const { person } of caso.partes) {
      if (fits(person, caso) && person.cases.some((c) => visibleAt(c, now))) return { caso, person };
    }
  }
  throw new Error('the sandbox has no future case naming a known party');
}

const hasDocument = (p: Person) => p.documento !== null;
const masked = (doc: string) => (doc.length === 11 ? formatCpf(doc) : formatCnpj(doc));
/** The person's visible cases (what a baseline finds). */
const visibleCasesOf = (p: Person, ms: number) => p.cases.filter((c) => visibleAt(c, ms));

// ---- HTTP ---------------------------------------------------------------------------------------

function call(h: Harness, acc: TestAccount, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return h.inject({ method, url, headers: acc.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

async function create(h: Harness, acc: TestAccount, body: Record<string, unknown>) {
  const res = await call(h, acc, 'POST', BASE, body);
  assert.equal(res.statusCode, 201, res.body);
  return json(res);
}

async function results(h: Harness, acc: TestAccount, id: string, query = '') {
  const res = await call(h, acc, 'GET', `${BASE}/${id}/resultados?limit=100${query}`);
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  // The results under data.items; the rest of the listing (pagination, links) beside them.
  return { ...body, data: body.data.items, list: body.data };
}

// ---- database -----------------------------------------------------------------------------------

async function debits(h: Harness, accountId: string) {
  return h.services.db.selectFrom('ledger').selectAll().where('account_id', '=', accountId).where('kind', '=', 'debit').orderBy('created_at').execute();
}

async function radarEvents(h: Harness, radarId: string) {
  const rows = await h.services.db.selectFrom('domain_events').selectAll().where('kind', 'in', ['novo_processo', 'novo_processo_envolvido']).execute();
  return rows.filter((e) => JSON.parse(e.data).radarId === radarId);
}

async function feed(h: Harness, accountId: string) {
  return h.services.db.selectFrom('account_events').selectAll().where('account_id', '=', accountId).execute();
}

/** Moves the clock past `ms` (and past the cycle's next run) and runs every due job. */
async function passTime(w: World, toMs: number) {
  w.clock.set(new Date(Math.max(toMs, w.clock.now().getTime()) + 60_000));
  await w.h.runJobs();
}

/** A loopback receiver of webhook deliveries. */
async function receiver(t: TestContext) {
  const received: { headers: http.IncomingHttpHeaders; body: any }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(body) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/radar`, received };
}

// ---- tests --------------------------------------------------------------------------------------

test(
  'a CPF/CNPJ radar: charged once, baseline without events; a new case of the party is a result, one ' +
    'novo_processo_envolvido, on the feed and at webhook_url',
  async (t) => {
    const w = await world(t);
    const { h, clock } = w;
    const rx = await receiver(t);
    const { caso, person } = futureCaseOf(w, hasDocument);
    const acc = await h.createAccount({ credits: 10_000 });

    const created = await create(h, acc, { termo: person.documento!, webhook_url: rx.url, frequencia: 'HORARIA' });
    const radar = created.data;
    assert.equal(radar.tipo, person.documento!.length === 11 ? 'CPF' : 'CNPJ');
    assert.equal(radar.termo, masked(person.documento!));
    assert.equal(radar.status, 'ATIVO');
    assert.equal(radar.preco, PRICE / 100);
    assert.equal(radar.webhookUrl, rx.url);
    assert.equal(created.meta.creditsCharged, PRICE / 100);
    assert.equal(created.meta.creditsRemaining, (10_000 - PRICE) / 100);
    assert.ok(created.meta.searchLogId);
    const ledger = await debits(h, acc.accountId);
    assert.equal(ledger.length, 1, 'charged once');
    assert.equal(ledger[0].operation_id, `${radar.id}:1`);
    assert.equal(ledger[0].delta_centavos, -PRICE);

    // The baseline: every case of the party visible now, stored, none announced.
    const baseline = visibleCasesOf(person, clock.now().getTime())
      .map((c) => formatCnj(c.numero))
      .sort();
    assert.ok(baseline.length > 0);
    assert.equal(radar.resultadosTotal, baseline.length);
    assert.ok(radar.ultimaVerificacaoEm);
    const first = await results(h, acc, radar.id);
    assert.deepEqual(first.data.map((r: any) => r.numeroCnj).sort(), baseline);
    assert.ok(first.data.every((r: any) => r.linhaDeBase === true && r.correspondencias.some((p: any) => p.documento === masked(person.documento!))));
    assert.equal((await radarEvents(h, radar.id)).length, 0);
    assert.equal((await feed(h, acc.accountId)).length, 0);

    await passTime(w, caso.filedAt);

    const after = await results(h, acc, radar.id);
    const fresh = after.data.filter((r: any) => !r.linhaDeBase);
    assert.ok(
      fresh.some((r: any) => r.numeroCnj === formatCnj(caso.numero)),
      'the new case is a result',
    );
    const result = fresh.find((r: any) => r.numeroCnj === formatCnj(caso.numero));
    assert.equal(result.tribunal, caso.court.sigla);
    assert.deepEqual(
      result.correspondencias.map((p: any) => p.documento),
      [masked(person.documento!)],
    );
    const events = await radarEvents(h, radar.id);
    assert.equal(events.length, fresh.length, 'one event per new result');
    assert.ok(events.every((e) => e.kind === 'novo_processo_envolvido'));
    const event = events.find((e) => e.numero_cnj === caso.numero)!;
    assert.deepEqual(
      JSON.parse(event.data).correspondencias.map((p: any) => p.documento),
      [masked(person.documento!)],
    );
    const mine = (await feed(h, acc.accountId)).filter((e) => e.monitor_id === radar.id);
    assert.equal(mine.length, fresh.length);
    assert.ok(mine.every((e) => e.kind === 'novo_processo_envolvido' && e.monitor_type === 'radar'));
    const delivered = rx.received.filter((r) => r.body.data?.radarId === radar.id);
    assert.equal(delivered.length, fresh.length, "delivered to the radar's webhook_url");
    assert.ok(
      delivered.some(
        (r) =>
          r.body.event === 'novo_processo_envolvido' &&
          r.body.data.numeroCnjDigitos === caso.numero &&
          r.body.data.numeroCnj === formatCnj(caso.numero) &&
          r.headers['x-service-event'] === 'novo_processo_envolvido',
      ),
    );
    assert.equal((await debits(h, acc.accountId)).length, 1, 'checks are not charged');

    // Nothing new since: the next check adds nothing and announces nothing.
    const total = after.meta.resultadosTotal;
    assert.equal(total, after.data.length);
    await passTime(w, clock.now().getTime() + 2000);
    assert.equal((await results(h, acc, radar.id)).meta.resultadosTotal, total);
    assert.equal((await radarEvents(h, radar.id)).length, events.length);
  },
);

test('a name radar announces novo_processo, searching the name and each variation', async (t) => {
  const w = await world(t);
  const { h } = w;
  const { caso, person } = futureCaseOf(w, (p) => p.tipoPessoa === 'FISICA');
  const acc = await h.createAccount({ credits: 10_000 });
  const created = await create(h, acc, { termo: person.nome.toUpperCase(), variacoes: ['Nome Que Ninguem Tem'], frequencia: 'HORARIA' });
  assert.equal(created.data.tipo, 'NOME');
  assert.deepEqual(created.data.variacoes, ['Nome Que Ninguem Tem']);
  assert.ok(created.data.resultadosTotal >= 1);
  assert.equal((await radarEvents(h, created.data.id)).length, 0);

  await passTime(w, caso.filedAt);

  const list = await results(h, acc, created.data.id);
  const fresh = list.data.filter((r: any) => !r.linhaDeBase);
  assert.ok(fresh.some((r: any) => r.numeroCnj === formatCnj(caso.numero)));
  const words = foldText(person.nome).split(' ');
  assert.ok(fresh.every((r: any) => r.correspondencias.some((p: any) => words.every((x) => foldText(p.nome).split(' ').includes(x)))));
  const events = await radarEvents(h, created.data.id);
  assert.equal(events.length, fresh.length);
  assert.ok(events.every((e) => e.kind === 'novo_processo'));
  assert.equal((await feed(h, acc.accountId)).filter((e) => e.kind === 'novo_processo' && e.monitor_id === created.data.id).length, fresh.length);
});

test('filters: another court or a forbidden word excludes the new case; its court, class and a required word admit it', async (t) => {
  const w = await world(t);
  const { h } = w;
  const { caso, person } = futureCaseOf(w, hasDocument);
  const classe = caso.instances[0].classe;
  const word = foldText(classe.nome)
    .split(' ')
    .find((x) => x.length > 3)!;
  const otherCourt = caso.court.sigla === 'TJSP' ? 'TJRJ' : 'TJSP';
  const acc = await h.createAccount({ credits: 10_000 });
  const byCourt = await create(h, acc, { termo: person.documento!, tribunais: [otherCourt], frequencia: 'HORARIA' });
  const forbidden = await create(h, acc, { termo: person.documento!, termos_proibidos: [word.toUpperCase()], frequencia: 'HORARIA' });
  const admitted = await create(h, acc, {
    termo: person.documento!,
    tribunais: [caso.court.sigla.toLowerCase()],
    classes: [String(classe.codigo)],
    termos_obrigatorios: [word],
    frequencia: 'HORARIA',
  });
  assert.deepEqual(byCourt.data.tribunais, [otherCourt]);
  assert.deepEqual(admitted.data.tribunais, [caso.court.sigla], 'siglas are stored canonical');

  await passTime(w, caso.filedAt);

  const numbers = async (id: string) => (await results(h, acc, id)).data.map((r: any) => r.numeroCnj);
  assert.ok(!(await numbers(byCourt.data.id)).includes(formatCnj(caso.numero)));
  assert.ok((await results(h, acc, byCourt.data.id)).data.every((r: any) => r.tribunal === otherCourt));
  assert.ok(!(await numbers(forbidden.data.id)).includes(formatCnj(caso.numero)));
  assert.ok((await numbers(admitted.data.id)).includes(formatCnj(caso.numero)));
  assert.ok((await results(h, acc, admitted.data.id)).data.every((r: any) => r.tribunal === caso.court.sigla));
  assert.ok(!(await radarEvents(h, forbidden.data.id)).some((e) => e.numero_cnj === caso.numero));
});

test('PATCH refines the filters; the term is immutable; widening makes the next check a silent baseline', async (t) => {
  const w = await world(t);
  const { h, clock } = w;
  const rx = await receiver(t);
  const { person } = futureCaseOf(w, hasDocument);
  const acc = await h.createAccount({ credits: 10_000 });
  const nowhere = (await create(h, acc, { termo: person.documento!, tribunais: ['STM'] })).data;
  assert.equal(nowhere.resultadosTotal, 0);
  const url = `${BASE}/${nowhere.id}`;

  const refined = await call(h, acc, 'PATCH', url, { frequencia: 'SEMANAL', webhook_url: rx.url, termos_proibidos: ['arquivamento'] });
  assert.equal(refined.statusCode, 200, refined.body);
  assert.equal(json(refined).data.frequencia, 'SEMANAL');
  assert.equal(json(refined).data.webhookUrl, rx.url);
  assert.deepEqual(json(refined).data.termosProibidos, ['arquivamento']);
  assert.ok(json(refined).data.ultimaVerificacaoEm, 'narrowing keeps the baseline');
  const clearedRes = await call(h, acc, 'PATCH', url, { webhook_url: null });
  assert.equal(clearedRes.statusCode, 200, clearedRes.body);
  const cleared = json(clearedRes);
  assert.equal(cleared.data.webhookUrl, null);

  for (const [body, field, code] of [
    [{ termo: '123' }, 'termo', 'INVALID_PARAMETER'],
    [{ tribunais: ['TJSP', 'TJXX'] }, 'tribunais.1', 'INVALID_PARAMETER'],
    [{ variacoes: ['Outro Nome Qualquer'] }, 'variacoes', 'INVALID_PARAMETER'],
    [{ webhook_url: 'ftp://example.com/x' }, 'webhook_url', 'INVALID_WEBHOOK_URL'],
    [{ frequencia: 'ANUAL' }, 'frequencia', 'INVALID_PARAMETER'],
  ] as const) {
    const res = await call(h, acc, 'PATCH', url, body);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(json(res).error.code, code);
    assert.equal(json(res).error.details.field, field);
  }

  // Every court again: the party's existing cases are found, but as a baseline (no event).
  const widened = json(await call(h, acc, 'PATCH', url, { tribunais: [], termos_proibidos: [] }));
  assert.deepEqual(widened.data.tribunais, []);
  assert.equal(widened.data.ultimaVerificacaoEm, null);
  await passTime(w, clock.now().getTime());
  const after = await results(h, acc, nowhere.id);
  assert.equal(after.data.length, visibleCasesOf(person, clock.now().getTime()).length);
  assert.ok(after.data.every((r: any) => r.linhaDeBase));
  assert.equal((await radarEvents(h, nowhere.id)).length, 0);
  assert.ok(json(await call(h, acc, 'GET', url)).data.ultimaVerificacaoEm);
});

test('DELETE deactivates: results stay readable, checks and charges stop, no more changes', async (t) => {
  const w = await world(t);
  const { h, clock } = w;
  const { caso, person } = futureCaseOf(w, hasDocument);
  const acc = await h.createAccount({ credits: 10_000 });
  const radar = (await create(h, acc, { termo: person.documento!, frequencia: 'HORARIA' })).data;

  const deleted = await call(h, acc, 'DELETE', `${BASE}/${radar.id}`);
  assert.equal(deleted.statusCode, 200, deleted.body);
  assert.equal(json(deleted).data.status, 'DESATIVADO');
  assert.equal(json(deleted).data.desativadoEm, clock.now().toISOString());
  assert.equal(json(deleted).data.proximaVerificacaoEm, null);
  assert.equal(json(deleted).data.proximaCobrancaEm, null);

  // Past the new case and past the renewal: nothing is checked, found or charged.
  await passTime(w, Math.max(caso.filedAt, clock.now().getTime() + 31 * 86_400_000));
  const read = json(await call(h, acc, 'GET', `${BASE}/${radar.id}`)).data;
  assert.equal(read.status, 'DESATIVADO');
  assert.equal(read.ultimaVerificacaoEm, radar.ultimaVerificacaoEm);
  const list = await results(h, acc, radar.id, '&sincronizar=true');
  assert.equal(list.data.length, radar.resultadosTotal, 'the results stay readable');
  assert.deepEqual(list.meta.sincronizacao, { executada: false, motivo: 'RADAR_DESATIVADO', proximaPermitidaEm: null });
  assert.equal((await radarEvents(h, radar.id)).length, 0);
  assert.equal((await debits(h, acc.accountId)).length, 1);

  const again = await call(h, acc, 'DELETE', `${BASE}/${radar.id}`);
  assert.equal(again.statusCode, 200);
  assert.equal(json(again).data.desativadoEm, read.desativadoEm, 'deactivating again changes nothing');
  const patch = await call(h, acc, 'PATCH', `${BASE}/${radar.id}`, { frequencia: 'DIARIA' });
  assert.equal(patch.statusCode, DEACTIVATED.status, patch.body);
  assert.equal(json(patch).error.code, DEACTIVATED.code);
  const listed = json(await call(h, acc, 'GET', BASE)).data.items;
  assert.deepEqual(
    listed.map((r: any) => [r.id, r.status]),
    [[radar.id, 'DESATIVADO']],
  );
});

test('renewal: one debit per period; a balance that does not cover it suspends the radar (no checks) until a top-up', async (t) => {
  const w = await world(t);
  const { h, clock } = w;
  const acc = await h.createAccount({ credits: 2 * PRICE });
  const radar = (await create(h, acc, { termo: 'Pessoa Inexistente de Renovacao', frequencia: 'HORARIA' })).data;
  const created = clock.now().getTime();
  const PERIOD = 30 * 86_400_000;

  await passTime(w, created + PERIOD);
  assert.deepEqual(
    (await debits(h, acc.accountId)).map((d) => d.operation_id),
    [`${radar.id}:1`, `${radar.id}:2`],
  );
  const renewed = json(await call(h, acc, 'GET', `${BASE}/${radar.id}`)).data;
  assert.equal(renewed.status, 'ATIVO');
  assert.equal(renewed.proximaCobrancaEm, new Date(created + 2 * PERIOD).toISOString());

  await passTime(w, created + 2 * PERIOD);
  const suspended = json(await call(h, acc, 'GET', `${BASE}/${radar.id}`)).data;
  assert.equal(suspended.status, 'SUSPENSO');
  assert.equal(suspended.proximaVerificacaoEm, null);
  assert.equal((await debits(h, acc.accountId)).length, 2);
  await passTime(w, clock.now().getTime() + 5000);
  assert.equal(
    json(await call(h, acc, 'GET', `${BASE}/${radar.id}`)).data.ultimaVerificacaoEm,
    suspended.ultimaVerificacaoEm,
    'a suspended radar is not checked',
  );

  await credit(h.services.db, clock, acc.accountId, PRICE, 'top-up');
  await passTime(w, clock.now().getTime());
  const resumed = json(await call(h, acc, 'GET', `${BASE}/${radar.id}`)).data;
  assert.equal(resumed.status, 'ATIVO');
  assert.ok(resumed.ultimaVerificacaoEm > suspended.ultimaVerificacaoEm, 'checked again');
  assert.deepEqual(
    (await debits(h, acc.accountId)).map((d) => d.operation_id),
    [`${radar.id}:1`, `${radar.id}:2`, `${radar.id}:3`],
  );
});

test('qualify a result by CNJ number; unknown numbers are 404, bad ones 400', async (t) => {
  const w = await world(t);
  const { h } = w;
  const { person } = futureCaseOf(w, hasDocument);
  const acc = await h.createAccount({ credits: 10_000 });
  const radar = (await create(h, acc, { termo: person.documento! })).data;
  const target = (await results(h, acc, radar.id)).data[0];
  const url = (n: string) => `${BASE}/${radar.id}/resultados/${n}/qualificar`;

  const res = await call(h, acc, 'POST', url(target.numeroCnj), { qualificacao: 'RELEVANTE', nota: 'cliente avisado' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).data.qualificacao, 'RELEVANTE');
  assert.equal(json(res).data.qualificacaoNota, 'cliente avisado');
  assert.ok(json(res).data.qualificadoEm);
  const bare = await call(h, acc, 'POST', url(target.numeroCnj.replace(/\D/g, '')), { qualificacao: 'EM_ANALISE' });
  assert.equal(json(bare).data.qualificacao, 'EM_ANALISE');
  assert.equal(json(bare).data.qualificacaoNota, null);

  const relevant = await results(h, acc, radar.id, '&qualificacao=EM_ANALISE');
  assert.deepEqual(
    relevant.data.map((r: any) => r.id),
    [target.id],
  );
  const unqualified = await results(h, acc, radar.id, '&qualificacao=SEM_QUALIFICACAO');
  assert.equal(unqualified.data.length, radar.resultadosTotal - 1);

  const seq = '9999999';
  const unknown = `${seq}${cnjCheckDigits(seq, '2021', '8', '26', '0100')}20218260100`;
  const missing = await call(h, acc, 'POST', url(unknown), { qualificacao: 'RELEVANTE' });
  assert.equal(missing.statusCode, 404, missing.body);
  assert.equal(json(missing).error.code, 'NOT_FOUND');
  const invalid = await call(h, acc, 'POST', url('1234567-00.2020.8.26.0001'), { qualificacao: 'RELEVANTE' });
  assert.equal(json(invalid).error.code, 'INVALID_CNJ');
  for (const [body, field] of [
    [{ qualificacao: 'OTIMO' }, 'qualificacao'],
    [{ qualificacao: 'RELEVANTE', nota: 'x'.repeat(1001) }, 'nota'],
    [{}, 'qualificacao'],
  ] as const) {
    const bad = await call(h, acc, 'POST', url(target.numeroCnj), body);
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(json(bad).error.details.field, field);
  }
});

test('archive and unarchive results, the by-day listing of all radars, and pagination', async (t) => {
  const w = await world(t);
  const { h, clock } = w;
  const { person } = futureCaseOf(w, (p) => hasDocument(p) && visibleCasesOf(p, clock.now().getTime()).length >= 2);
  const acc = await h.createAccount({ credits: 10_000 });
  const stranger = await h.createAccount({ credits: 10_000 });
  const radar = (await create(h, acc, { termo: person.documento! })).data;
  const other = await insertRadar(h, acc);
  await insertResult(h, other, h.sources.sandbox!.dataset.cases.find((c) => !person.cases.includes(c))!.numero);
  const all = (await results(h, acc, radar.id)).data;
  const total = all.length + 1;
  const today = clock.now().toISOString().slice(0, 10);

  const day = json(await call(h, acc, 'GET', `${BASE}/resultados?limit=100`));
  assert.equal(day.meta.dia, today);
  assert.equal(day.data.items.length, total, 'every radar of the account');
  assert.equal(json(await call(h, stranger, 'GET', `${BASE}/resultados`)).data.items.length, 0);
  assert.equal(json(await call(h, acc, 'GET', `${BASE}/resultados?dia=2025-12-31`)).data.items.length, 0);
  const badDay = await call(h, acc, 'GET', `${BASE}/resultados?dia=2026-02-30`);
  assert.equal(badDay.statusCode, 400);
  assert.equal(json(badDay).error.details.field, 'dia');

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const body: any = json(await call(h, acc, 'GET', `${BASE}/resultados?limit=1${cursor ? `&cursor=${cursor}` : ''}`));
    seen.push(...body.data.items.map((r: any) => r.id));
    cursor = body.meta.pagination.nextCursor;
  } while (cursor);
  assert.equal(new Set(seen).size, total, 'the cursor walks every result once');

  const ids = all.slice(0, 2).map((r: any) => r.id);
  const archived = await call(h, acc, 'POST', `${BASE}/resultados/arquivar`, { ids: [...ids, 'rrs_unknown'] });
  assert.equal(archived.statusCode, 200, archived.body);
  assert.deepEqual(json(archived).data, { alterados: ids.length, naoEncontrados: 1 });
  assert.deepEqual(json(await call(h, acc, 'POST', `${BASE}/resultados/arquivar`, { ids })).data, { alterados: 0, naoEncontrados: 0 }, 'idempotent');
  assert.deepEqual(
    json(await call(h, stranger, 'POST', `${BASE}/resultados/desarquivar`, { ids })).data,
    { alterados: 0, naoEncontrados: ids.length },
    "another account's ids are not touched",
  );

  assert.deepEqual(
    json(await call(h, acc, 'GET', `${BASE}/resultados?arquivados=true`))
      .data.items.map((r: any) => r.id)
      .sort(),
    [...ids].sort(),
  );
  assert.equal(json(await call(h, acc, 'GET', `${BASE}/resultados?arquivados=false&limit=100`)).data.items.length, total - ids.length);
  const perRadar = await results(h, acc, radar.id, '&arquivados=true');
  assert.ok(perRadar.data.every((r: any) => r.arquivado && r.arquivadoEm));
  assert.equal(perRadar.data.length, ids.length);

  assert.deepEqual(json(await call(h, acc, 'POST', `${BASE}/resultados/desarquivar`, { ids })).data, { alterados: ids.length, naoEncontrados: 0 });
  assert.equal(json(await call(h, acc, 'GET', `${BASE}/resultados?arquivados=true`)).data.items.length, 0);
  for (const body of [{ ids: [] }, { ids: Array.from({ length: 501 }, (_, i) => `rrs_${i}`) }, {}]) {
    const bad = await call(h, acc, 'POST', `${BASE}/resultados/arquivar`, body);
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(json(bad).error.details.field, 'ids');
  }
});

test('sincronizar: a check at most once per 60 s per radar; a provider failure is SOURCE_UNAVAILABLE and free', async (t) => {
  const w = await world(t);
  const { h, clock } = w;
  const { caso, person } = futureCaseOf(w, hasDocument);
  const acc = await h.createAccount({ credits: 10_000 });
  const radar = (await create(h, acc, { termo: person.documento!, frequencia: 'SEMANAL' })).data;

  clock.set(new Date(caso.filedAt + 1000));
  const first = await results(h, acc, radar.id, '&sincronizar=true');
  assert.equal(first.meta.sincronizacao.executada, true);
  assert.ok(first.meta.sincronizacao.novos >= 1);
  assert.ok(first.data.some((r: any) => r.numeroCnj === formatCnj(caso.numero) && !r.linhaDeBase));
  assert.equal((await radarEvents(h, radar.id)).length, first.meta.sincronizacao.novos);

  const second = await results(h, acc, radar.id, '&sincronizar=true');
  assert.equal(second.meta.sincronizacao.executada, false);
  assert.equal(second.meta.sincronizacao.motivo, 'INTERVALO_MINIMO');
  assert.equal(second.meta.sincronizacao.proximaPermitidaEm, new Date(clock.now().getTime() + 60_000).toISOString());
  assert.equal(second.data.length, first.data.length, 'the stored results are served');

  clock.advance(60_000);
  h.sources.sandbox!.faults.set({ upstream: 'portal', status: 503 });
  try {
    const failed = await call(h, acc, 'GET', `${BASE}/${radar.id}/resultados?sincronizar=true`);
    assert.equal(failed.statusCode, 503, failed.body);
    assert.equal(json(failed).error.code, 'SOURCE_UNAVAILABLE');
  } finally {
    h.sources.sandbox!.faults.reset();
  }
  assert.match(json(await call(h, acc, 'GET', `${BASE}/${radar.id}`)).data.ultimoErro, /portal/);
  clock.advance(60_000);
  const third = await results(h, acc, radar.id, '&sincronizar=true');
  assert.deepEqual(third.meta.sincronizacao, { executada: true, novos: 0, linhaDeBase: false });
  assert.equal(json(await call(h, acc, 'GET', `${BASE}/${radar.id}`)).data.ultimoErro, null);
  assert.equal((await debits(h, acc.accountId)).length, 1, 'synchronizing is free');
});

test('a provider failure at creation: the radar is created with ultimoErro and the cycle takes the baseline, silently', async (t) => {
  const w = await world(t);
  const { h, clock } = w;
  const { person } = futureCaseOf(w, hasDocument);
  const acc = await h.createAccount({ credits: 10_000 });
  h.sources.sandbox!.faults.set({ upstream: 'portal', status: 503 });
  let radar: Awaited<ReturnType<typeof create>>['data'];
  try {
    radar = (await create(h, acc, { termo: person.documento! })).data;
  } finally {
    h.sources.sandbox!.faults.reset();
  }
  assert.match(radar.ultimoErro, /portal/);
  assert.equal(radar.ultimaVerificacaoEm, null);
  assert.equal(radar.resultadosTotal, 0);
  assert.equal((await debits(h, acc.accountId)).length, 1);

  await passTime(w, clock.now().getTime());
  const read = json(await call(h, acc, 'GET', `${BASE}/${radar.id}`)).data;
  assert.equal(read.ultimoErro, null);
  assert.ok(read.ultimaVerificacaoEm);
  assert.equal(read.resultadosTotal, visibleCasesOf(person, clock.now().getTime()).length);
  assert.ok((await results(h, acc, radar.id)).data.every((r: any) => r.linhaDeBase));
  assert.equal((await radarEvents(h, radar.id)).length, 0);
});

test('a failed debit leaves no radar behind (the balance spent between the price check and the charge)', async (t) => {
  const w = await world(t);
  const { h } = w;
  const { person } = futureCaseOf(w, hasDocument);
  const acc = await h.createAccount({ credits: PRICE - 1 });
  const account = (await h.services.accounts.get(acc.accountId))!;
  // As the runner would call it after its price check passed on a balance read earlier.
  const req = {
    auth: { keyId: acc.keyId, account: { ...account, balance_centavos: PRICE } },
    id: 'req_race',
    method: 'POST',
    url: BASE,
  } as unknown as FastifyRequest;
  const op: OperationContext = {
    priceCentavos: PRICE,
    chargeIn: async (trx, o = {}) => {
      await h.services.ledger.chargeIn(trx, {
        accountId: acc.accountId,
        queryType: 'monitor.novos_processos',
        origin: { requestId: req.id, method: 'POST', path: BASE, statusCode: 201 },
        debits: o.debits ?? [],
      });
    },
  };
  await assert.rejects(createRadar(h.capabilities.radars, req, op, { termo: person.documento! }), (e: any) => e.code === 'INSUFFICIENT_CREDITS');
  assert.equal((await h.services.db.selectFrom('radars').selectAll().where('account_id', '=', acc.accountId).execute()).length, 0);
  assert.equal((await h.services.db.selectFrom('radar_results').selectAll().where('account_id', '=', acc.accountId).execute()).length, 0);
  assert.equal((await debits(h, acc.accountId)).length, 0);
  assert.equal((await h.services.db.selectFrom('search_logs').selectAll().where('account_id', '=', acc.accountId).execute()).length, 0);

  const res = await call(h, acc, 'POST', BASE, { termo: person.documento! });
  assert.equal(res.statusCode, 403);
  assert.equal(json(res).error.code, 'INSUFFICIENT_CREDITS');
});

test("another account's radar is 404 on every :id route, and is left untouched", async (t) => {
  const w = await world(t);
  const { h } = w;
  const owner = await h.createAccount({ credits: 10_000 });
  const stranger = await h.createAccount({ credits: 10_000 });
  const radar = await insertRadar(h, owner);
  const numero = await insertResult(h, radar);
  for (const [method, url, body] of [
    ['GET', `${BASE}/${radar.id}`, undefined],
    ['PATCH', `${BASE}/${radar.id}`, { frequencia: 'SEMANAL' }],
    ['DELETE', `${BASE}/${radar.id}`, undefined],
    ['GET', `${BASE}/${radar.id}/resultados?sincronizar=true`, undefined],
    ['POST', `${BASE}/${radar.id}/resultados/${numero}/qualificar`, { qualificacao: 'RELEVANTE' }],
  ] as const) {
    const res = await call(h, stranger, method, url, body);
    assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    assert.equal(json(res).error.code, 'NOT_FOUND');
  }
  const read = json(await call(h, owner, 'GET', `${BASE}/${radar.id}`)).data;
  assert.equal(read.status, 'ATIVO');
  assert.equal(read.frequencia, 'DIARIA');
  assert.equal(read.ultimaSincronizacaoEm, null);
  assert.equal(json(await call(h, stranger, 'GET', BASE)).data.items.length, 0);
});

test('invalid bodies are 400 naming the field; nothing is created or charged', async (t) => {
  const w = await world(t);
  const { h } = w;
  const acc = await h.createAccount({ credits: 10_000 });
  const cases: [Record<string, unknown>, string, string][] = [
    [{}, 'MISSING_PARAMETER', 'termo'],
    [{ termo: 'Ana' }, 'INVALID_PARAMETER', 'termo'],
    [{ termo: 'Al Bo' }, 'INVALID_PARAMETER', 'termo'],
    [{ termo: '123.456.789-00' }, 'INVALID_CPF_CNPJ', 'termo'],
    [{ termo: 'Maria da Silva', tribunais: ['TJXX'] }, 'INVALID_PARAMETER', 'tribunais.0'],
    [{ termo: 'Maria da Silva', variacoes: ['Maria Silva', 'Ma'] }, 'INVALID_PARAMETER', 'variacoes.1'],
    [{ termo: 'Maria da Silva', variacoes: Array.from({ length: 21 }, (_, i) => `Maria Silva ${i}`) }, 'INVALID_PARAMETER', 'variacoes'],
    [{ termo: '529.982.247-25', variacoes: ['Maria Silva'] }, 'INVALID_PARAMETER', 'variacoes'],
    [{ termo: 'Maria da Silva', termos_proibidos: ['!!!'] }, 'INVALID_PARAMETER', 'termos_proibidos.0'],
    [{ termo: 'Maria da Silva', classes: [''] }, 'INVALID_PARAMETER', 'classes.0'],
    [{ termo: 'Maria da Silva', webhook_url: 'ftp://example.com/hook' }, 'INVALID_WEBHOOK_URL', 'webhook_url'],
    [{ termo: 'Maria da Silva', frequencia: 'ANUAL' }, 'INVALID_PARAMETER', 'frequencia'],
    [{ termo: 'Maria da Silva', outra: 1 }, 'UNKNOWN_PARAMETER', 'outra'],
  ];
  for (const [body, code, field] of cases) {
    const res = await call(h, acc, 'POST', BASE, body);
    assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`);
    assert.equal(json(res).error.code, code, res.body);
    assert.equal(json(res).error.details.field, field, res.body);
  }
  assert.equal(json(await call(h, acc, 'GET', BASE)).data.items.length, 0);
  assert.equal((await debits(h, acc.accountId)).length, 0);

  const details = h.services.sources.details;
  h.services.sources.details = null;
  try {
    const res = await call(h, acc, 'POST', BASE, { termo: 'Maria da Silva' });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(json(res).error.code, 'DETAILS_UNAVAILABLE');
  } finally {
    h.services.sources.details = details;
  }
});

test('the list of radars: newest first, by page; alphanumeric CNPJ and masked input are accepted', async (t) => {
  const w = await world(t);
  const { h, clock } = w;
  const acc = await h.createAccount({ credits: 10_000 });
  const ids: string[] = [];
  for (const termo of ['529.982.247-25', '12ABC34501DE35', 'Fulana de Teste Lista']) {
    ids.push((await create(h, acc, { termo })).data.id);
    clock.advance(1000);
  }
  const first = json(await call(h, acc, 'GET', `${BASE}?limit=2`));
  assert.deepEqual(
    first.data.items.map((r: any) => r.id),
    [ids[2], ids[1]],
  );
  assert.deepEqual(
    first.data.items.map((r: any) => [r.tipo, r.termo]),
    [
      ['NOME', 'Fulana de Teste Lista'],
      ['CNPJ', '12.ABC.345/01DE-35'],
    ],
  );
  const second = json(await call(h, acc, 'GET', `${BASE}?limit=2&cursor=${first.meta.pagination.nextCursor}`));
  assert.deepEqual(
    second.data.items.map((r: any) => [r.id, r.tipo, r.termo]),
    [[ids[0], 'CPF', '529.982.247-25']],
  );
  assert.equal(second.meta.pagination.nextCursor, null);
});

test('matching rules: whole words with accents and case ignored, class by name or code, names by every word; what widens', () => {
  const caso = {
    row: { tribunal: 'TJSP' },
    instancias: [{ classe: { codigo: '7', nome: 'Procedimento Comum Cível' }, assuntos: [{ codigo: '1', nome: 'Indenização por Dano Moral' }] }],
    partes: [
      { polo: 'ATIVO', tipo: 'AUTOR', nome: 'JOSÉ DA SILVA SAURO', tipoPessoa: 'FISICA', documento: '52998224725', advogados: [] },
      { polo: 'PASSIVO', tipo: 'RÉU', nome: 'Banco Fictício Beta S.A.', tipoPessoa: 'JURIDICA', documento: null, advogados: [] },
    ],
  } as unknown as StoredCase;
  const base: RadarCriteria = {
    tipo: 'NOME',
    normalizado: 'jose silva',
    variacoes: [],
    tribunais: [],
    classes: [],
    termosObrigatorios: [],
    termosProibidos: [],
  };
  const c = (x: Partial<RadarCriteria>) => ({ ...base, ...x });

  assert.deepEqual(
    correspondences(caso, base).map((p) => p.nome),
    ['JOSÉ DA SILVA SAURO'],
  );
  assert.deepEqual(correspondences(caso, c({ normalizado: 'jose sauro silva' })).length, 1, 'word order does not matter');
  assert.deepEqual(correspondences(caso, c({ normalizado: 'jose silvana' })), []);
  assert.deepEqual(
    correspondences(caso, c({ normalizado: 'maria souza', variacoes: ['Banco Beta'] })).map((p) => p.polo),
    ['PASSIVO'],
  );
  assert.deepEqual(
    correspondences(caso, c({ tipo: 'CPF', normalizado: '52998224725' })).map((p) => p.documento),
    ['52998224725'],
  );

  assert.ok(passesFilters(caso, c({ tribunais: ['TJSP'], classes: ['procedimento comum civel'] })));
  assert.ok(passesFilters(caso, c({ classes: ['7'] })));
  assert.ok(!passesFilters(caso, c({ classes: ['70'] })));
  assert.ok(!passesFilters(caso, c({ tribunais: ['TJRJ'] })));
  assert.ok(passesFilters(caso, c({ termosObrigatorios: ['DANO MORAL', 'indenizacao'] })));
  assert.ok(!passesFilters(caso, c({ termosObrigatorios: ['dano material'] })));
  assert.ok(!passesFilters(caso, c({ termosProibidos: ['banco'] })));
  assert.ok(passesFilters(caso, c({ termosProibidos: ['ban'] })), 'whole words only');

  assert.ok(!widens(c({ tribunais: ['TJSP', 'TJRJ'] }), c({ tribunais: ['TJSP'] })));
  assert.ok(widens(c({ tribunais: ['TJSP'] }), c({ tribunais: [] })));
  assert.ok(widens(c({ tribunais: ['TJSP'] }), c({ tribunais: ['TJSP', 'TJRJ'] })));
  assert.ok(!widens(base, c({ tribunais: ['TJSP'] })));
  assert.ok(widens(base, c({ variacoes: ['Jose S'] })));
  assert.ok(!widens(c({ variacoes: ['Jose S'] }), base));
  assert.ok(widens(c({ termosProibidos: ['banco'] }), base));
  assert.ok(!widens(base, c({ termosProibidos: ['banco'], termosObrigatorios: ['dano'] })));
  assert.ok(widens(c({ termosObrigatorios: ['dano'] }), base));
});

test('a case is reported once per radar: a second worker recording the same hit changes nothing and announces nothing', async (t) => {
  const w = await world(t);
  const { h } = w;
  const acc = await h.createAccount();
  const radar = await insertRadar(h, acc, { tipo: 'CPF', termo: '529.982.247-25', termo_normalizado: '52998224725' });
  const numero = h.sources.sandbox!.dataset.cases[0].numero;
  const match = {
    caso: { row: { numero_cnj: numero, tribunal: 'TJSP', classe_nome: null, data_ajuizamento: null } } as unknown as StoredCase,
    correspondencias: [],
  };
  const m = h.capabilities.radars;
  const record = () => h.services.db.transaction().execute((trx) => recordResult(m, trx, radar, match, false));
  const outcomes = await Promise.all([record(), record()]);
  assert.deepEqual(outcomes.sort(), [false, true]);
  assert.equal((await radarEvents(h, radar.id)).length, 1);
  assert.equal((await m.store.byId(radar.id))!.resultados_total, 1);
});
