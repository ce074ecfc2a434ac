/**
 * Case monitors hear DJEN (issue 43, item 3): a monitored case's number joins the publication matcher,
 * so a DJEN communication of the case becomes `diario_movimentacao_nova` (spec §6.4) for every account
 * monitoring it, with its text and date, in the publication cycle that ingests it, whatever DataJud
 * says (here DataJud answers as of a week ago, as it lags the courts). The cycle asks DJEN once per
 * distinct number however many accounts follow it, and a communication is announced once. DJEN failing
 * is counted and the number is asked again at the next cycle.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.ts';
import { telemetry } from '../src/platform/observability/telemetry.ts';
import { createHarness, json, monitorTestEnv, type TestAccount } from './harness.ts';
import { caseFeed, monitorCase } from './case-feed.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clock = new ManualClock('2026-01-01T00:00:00.000Z');
const h = await createHarness({ clock, env: monitorTestEnv(HOUR, { TRAMITA_FEED_SETTLE_MS: '0' }) });
after(() => h.close());
const sandbox = h.sources.sandbox!;
const now = () => clock.now().getTime();
const cases = sandbox.dataset.cases.filter((c) => c.filedAt <= now() - 30 * DAY && c.court.datajudAlias);

const monitor = (acc: TestAccount, numero: string) => monitorCase(h, acc, numero, 'DIARIA');
const diario = (acc: TestAccount, numero: string) => caseFeed(h, acc, numero, 'diario_movimentacao_nova');

async function djenFailures(): Promise<number> {
  const metric = await telemetry.auxiliaryFailures.get();
  return metric.values.filter((v) => v.labels.source === 'djen' && v.labels.step === 'diario').reduce((n, v) => n + v.value, 0);
}

test('a DJEN communication of a monitored case reaches each monitoring account as diario_movimentacao_nova, with one query per number', async () => {
  sandbox.datajud.set({ lagMs: 7 * DAY });
  try {
    const [a, b] = [await h.createAccount({ credits: 10_000 }), await h.createAccount({ credits: 10_000 })];
    const c = cases[0]!;
    const ids = [await monitor(a, c.numero), await monitor(b, c.numero)];
    clock.advance(60_000);
    await h.runJobs(); // first checks: DataJud, and DJEN's recent history of the case (history, not news)
    assert.deepEqual(await diario(a, c.numero), [], "the case's past communications are its history");

    const texto = 'Intimação fictícia: fica a parte intimada da decisão de hoje (sandbox).';
    const item = sandbox.djen.publish({ numeroProcesso: c.numero, texto });
    clock.advance(DAY);
    const before = sandbox.stats().djen.requests;
    await h.runJobs();
    const asked = sandbox.stats().djen.requests - before;
    for (const [i, acc] of [a, b].entries()) {
      const events = await diario(acc, c.numero);
      assert.equal(events.length, 1, `account ${i}: one event`);
      const e = events[0]!;
      assert.equal(e.monitor?.id, ids[i]);
      assert.equal(e.data.publicacao.id, String(item.id));
      assert.match(e.data.publicacao.textoHtml, /fica a parte intimada/);
      assert.ok(e.data.publicacao.dataDisponibilizacao ?? e.data.publicacao.data, JSON.stringify(e.data.publicacao));
    }
    assert.equal(asked, 1, 'one DJEN query for the number both accounts follow');

    // Asked again the next day: the same communication is not news again.
    clock.advance(DAY);
    await h.runJobs();
    assert.equal((await diario(a, c.numero)).length, 1);
    for (const [i, id] of ids.entries()) await h.inject({ method: 'DELETE', url: `/v1/monitoramentos/processos/${id}`, headers: [a, b][i]!.headers });
  } finally {
    sandbox.datajud.reset();
  }
});

test('DJEN failing: the number is counted as failed and asked again at the next cycle, which brings the communication', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const c = cases[1]!;
  const id = await monitor(acc, c.numero);
  clock.advance(60_000);
  await h.runJobs();
  sandbox.djen.publish({ numeroProcesso: c.numero, texto: 'Intimação fictícia enquanto o DJEN falha (sandbox).' });
  const failures = await djenFailures();
  sandbox.faults.set({ upstream: 'djen', status: 403 });
  try {
    clock.advance(DAY);
    await h.runJobs();
  } finally {
    sandbox.faults.reset();
  }
  assert.equal(await djenFailures(), failures + 1);
  assert.deepEqual(await diario(acc, c.numero), []);
  const m = json(await h.inject({ method: 'GET', url: `/v1/monitoramentos/processos/${id}`, headers: acc.headers })).data;
  assert.equal(m.ultimoErro, null, "the DataJud check is not DJEN's failure");
  clock.advance(60_000);
  await h.runJobs();
  assert.equal((await diario(acc, c.numero)).length, 1);
});
