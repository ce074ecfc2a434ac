/**
 * Refreshes read the court (issue 43, item 4): `solicitar-atualizacao` asks DataJud and the court's own
 * page (the sandbox's e-SAJ and TJDFT consultations) at once. A movement the page shows before DataJud
 * (the sandbox's DataJud answers as of `lagMs` ago, as the real one lags the courts) is stored with its
 * text and announced as `nova_movimentacao`; when DataJud later lists the same movement (same day,
 * same title), it becomes one movement with DataJud's code and the page's text, and nothing is
 * announced again. A case only the court's page knows is refreshed from that page.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.ts';
import { brasiliaDay } from '../src/platform/format.ts';
import type { SandboxCase } from '../src/sandbox/data/model.ts';
import { createHarness, json, monitorTestEnv, type TestAccount } from './harness.ts';
import { caseFeed, monitorCase } from './case-feed.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const COURTS = ['TJSP', 'TJAL', 'TJAC', 'TJDFT'];
const clock = new ManualClock('2026-01-01T00:00:00.000Z');
const h = await createHarness({ clock, env: monitorTestEnv(HOUR, { TRAMITA_CONSULTAS: COURTS.join(','), TRAMITA_FEED_SETTLE_MS: '0' }) });
after(() => h.close());
const sandbox = h.sources.sandbox!;
const now = () => clock.now().getTime();

const movements = (c: SandboxCase) => c.instances.flatMap((i) => i.movements);
const nextMovementAt = (c: SandboxCase) =>
  Math.min(
    ...movements(c)
      .filter((m) => m.at > now())
      .map((m) => m.at),
  );
const used = new Set<string>();
/** A one-instance case of a consultation court, filed before `filedBefore`, whose next movement comes first. */
function caseWithNews(filedBefore: number): SandboxCase {
  const c = sandbox.dataset.cases
    .filter((x) => !used.has(x.numero) && COURTS.includes(x.court.sigla) && x.instances.length === 1 && x.filedAt < filedBefore)
    .filter((x) => nextMovementAt(x) < now() + 20 * DAY)
    .sort((a, b) => nextMovementAt(a) - nextMovementAt(b))[0];
  assert.ok(c, 'a one-instance sandbox case of a consultation court with a movement due within 20 days');
  used.add(c.numero);
  return c;
}

/** A monthly monitor, so the account hears the case's news (its own checks are a month apart). */
const monitor = (acc: TestAccount, numero: string) => monitorCase(h, acc, numero, 'MENSAL');

async function refresh(acc: TestAccount, numero: string): Promise<{ status: string; novasMovimentacoes: number | null; erro: unknown }> {
  const asked = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${numero}/solicitar-atualizacao`, headers: acc.headers });
  assert.equal(asked.statusCode, 200, asked.body);
  await h.runJobs();
  return json(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}/status-atualizacao`, headers: acc.headers })).data;
}

type Announced = { data: string; nome: string; codigo: string; texto: string | null; source: string };
/** Every movement announced to the account for the case, with the event's source. */
async function announced(acc: TestAccount, numero: string): Promise<Announced[]> {
  const news = await caseFeed(h, acc, numero, 'nova_movimentacao');
  return news.flatMap((e) => (e.data.movimentacoes as Omit<Announced, 'source'>[]).map((m) => ({ ...m, source: e.source })));
}

async function listed(acc: TestAccount, numero: string): Promise<{ data: string; nome: string; codigo: string; texto: string | null }[]> {
  const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}/movimentacoes?limit=100`, headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data.movimentacoes;
}

/** Runs `fn` with the sandbox's DataJud answering as of `lagMs` ago. */
async function withDataJudLag(lagMs: number, fn: () => Promise<void>): Promise<void> {
  sandbox.datajud.set({ lagMs });
  try {
    await fn();
  } finally {
    sandbox.datajud.reset();
  }
}

/** A movement as integrators dedupe it (conventions §4.3): its Brasília day and its title. */
const dayTitle = (m: { at: number; type: { nome: string } }) => `${brasiliaDay(new Date(m.at).toISOString())}|${m.type.nome}`;
const listedDayTitle = (m: { data: string; nome: string }) => `${m.data.split('/').reverse().join('-')}|${m.nome}`;

test("a movement on the court's page before DataJud: announced once with its text, and DataJud's later copy is not news again", async () => {
  const LAG = 5 * DAY;
  await withDataJudLag(LAG, async () => {
    const acc = await h.createAccount({ credits: 10_000 });
    const c = caseWithNews(now() - 3 * LAG);
    const t0 = now();
    const id = await monitor(acc, c.numero);
    clock.advance(60_000);
    await h.runJobs(); // the monitor's first check stores DataJud's view; the enrichment reads the page: the baseline
    assert.deepEqual(await announced(acc, c.numero), [], 'the baseline is no news');

    // The court publishes; DataJud does not have it yet.
    clock.advance(nextMovementAt(c) - now() + HOUR);
    const t1 = now();
    const first = await refresh(acc, c.numero);
    const onPage = movements(c).filter((m) => m.at > t0 + 60_000 && m.at <= t1);
    assert.ok(onPage.length >= 1);
    assert.equal(first.status, 'CONCLUIDA', JSON.stringify(first));
    assert.equal(first.novasMovimentacoes, onPage.length);
    const news = await announced(acc, c.numero);
    assert.deepEqual(news.map(listedDayTitle).sort(), onPage.map(dayTitle).sort(), 'each of the page news announced');
    assert.ok(
      news.every((m) => m.codigo === '' && m.source.endsWith(`consulta-${c.court.sigla.toLowerCase()}`)),
      JSON.stringify(news),
    );
    const stored = await listed(acc, c.numero);
    for (const m of onPage)
      assert.ok(
        stored.some((s) => listedDayTitle(s) === dayTitle(m)),
        `${dayTitle(m)} stored`,
      );

    // DataJud catches up: the same movements, now with their TPU codes, are no news.
    clock.advance(LAG + HOUR);
    const t2 = now();
    const second = await refresh(acc, c.numero);
    assert.equal(second.status, 'CONCLUIDA', JSON.stringify(second));
    const all = await announced(acc, c.numero);
    const published = movements(c).filter((m) => m.at > t0 + 60_000 && m.at <= t2);
    assert.deepEqual(all.map(listedDayTitle).sort(), published.map(dayTitle).sort(), 'every movement announced exactly once');
    const after = await listed(acc, c.numero);
    const visible = movements(c).filter((m) => m.at <= t2);
    assert.equal(after.length, visible.length, 'one movement each, never twice');
    for (const m of onPage) {
      const one = after.filter((s) => listedDayTitle(s) === dayTitle(m));
      assert.equal(one.length, 1);
      assert.equal(one[0]!.codigo, String(m.type.codigo), "DataJud's code on the page's movement");
    }
    await h.inject({ method: 'DELETE', url: `/v1/monitoramentos/processos/${id}`, headers: acc.headers });
  });
});

test("a case only the court's page knows is refreshed from that page, and its new movements are announced", async () => {
  // DataJud a year behind: it knows none of these cases' recent life, and the chosen case not at all.
  await withDataJudLag(3_650 * DAY, async () => {
    const acc = await h.createAccount({ credits: 10_000 });
    const c = caseWithNews(now());
    const cover = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${c.numero}`, headers: acc.headers });
    assert.equal(cover.statusCode, 200, cover.body);
    assert.equal(json(cover).data.consultaPublica.fonte, `consulta-${c.court.sigla.toLowerCase()}`);
    const id = await monitor(acc, c.numero);
    clock.advance(60_000);
    await h.runJobs(); // the monitor's first check (which reads the page too): a month to the next
    const t0 = now();
    clock.advance(nextMovementAt(c) - now() + HOUR);
    const done = await refresh(acc, c.numero);
    assert.equal(done.status, 'CONCLUIDA', JSON.stringify(done));
    const onPage = movements(c).filter((m) => m.at > t0 && m.at <= now());
    assert.equal(done.novasMovimentacoes, onPage.length);
    const news = await announced(acc, c.numero);
    assert.deepEqual(news.map(listedDayTitle).sort(), onPage.map(dayTitle).sort());
    await h.inject({ method: 'DELETE', url: `/v1/monitoramentos/processos/${id}`, headers: acc.headers });
  });
});

test("a case monitor's check reads the court's page: its movement is announced days before DataJud has it, and only once", async () => {
  const LAG = 5 * DAY;
  await withDataJudLag(LAG, async () => {
    const acc = await h.createAccount({ credits: 10_000 });
    const c = caseWithNews(now() - 3 * LAG);
    const t0 = now();
    const id = await monitorCase(h, acc, c.numero, 'DIARIA');
    clock.advance(60_000);
    await h.runJobs(); // the first check: DataJud's view, and the page read as the baseline
    assert.deepEqual(await announced(acc, c.numero), []);

    clock.advance(Math.max(nextMovementAt(c) - now(), DAY) + HOUR);
    const t1 = now();
    await h.runJobs(); // the next daily check: DataJud does not have it yet, the page does
    const onPage = movements(c).filter((m) => m.at > t0 + 60_000 && m.at <= t1);
    assert.ok(onPage.length >= 1);
    const news = await announced(acc, c.numero);
    assert.deepEqual(news.map(listedDayTitle).sort(), onPage.map(dayTitle).sort());
    assert.ok(news.every((m) => m.source.endsWith(`consulta-${c.court.sigla.toLowerCase()}`)));

    clock.advance(LAG + DAY);
    const t2 = now();
    await h.runJobs(); // DataJud has caught up
    const published = movements(c).filter((m) => m.at > t0 + 60_000 && m.at <= t2);
    assert.deepEqual((await announced(acc, c.numero)).map(listedDayTitle).sort(), published.map(dayTitle).sort(), 'each movement announced once');
    await h.inject({ method: 'DELETE', url: `/v1/monitoramentos/processos/${id}`, headers: acc.headers });
  });
});
