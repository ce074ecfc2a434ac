/**
 * Case monitors hear DJEN at their own frequency (issue 51 item 5). TRAMITA_MONITOR_INTERVAL_MS is 5 min
 * here, so HORARIA is 5 min and DIARIA 120 min (the scaling every frequency follows), and
 * DJEN_REQUESTS_PER_MINUTE is DJEN's real 20. DJEN is a scripted source that records every query (so
 * the queries are counted, never timed): a monitored number is asked once per the shortest period among
 * the monitors that follow it, once for every account, at most half of DJEN's budget per one-minute
 * cycle, the least recently asked first; needing more asks
 * than one period's budget is a gauge and a warn line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scriptedPublications } from '../src/capabilities/publications/testing.ts';
import { publicationRecord, type ScriptedSource } from '../src/capabilities/publications/testing.ts';
import { asksPerMinute, asksPerPeriod, CaseAskPace } from '../src/capabilities/publications/case-polling.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { brasiliaDayBefore } from '../src/platform/format.ts';
import { telemetry } from '../src/platform/observability/telemetry.ts';
import type { PublicationQuery } from '../src/platform/ports/publications.ts';
import { caseFeed, monitorCase } from './case-feed.ts';
import { createHarness, json, monitorTestEnv, type Harness } from './harness.ts';

const MINUTE = 60_000;
const INTERVAL = 5 * MINUTE;
const HORARIA = INTERVAL;
const DIARIA = 24 * INTERVAL;
/** The monitor and publication cycles run every minute (cycleMs of a 5-minute interval). */
const CYCLE = MINUTE;

async function setup(env: Record<string, string> = {}) {
  const clock = new ManualClock('2026-03-02T12:00:00.000Z');
  const h = await createHarness({
    clock,
    captureLogs: true,
    env: monitorTestEnv(INTERVAL, { TRAMITA_FEED_SETTLE_MS: '0', DJEN_REQUESTS_PER_MINUTE: '20', ...env }),
  });
  const { source } = scriptedPublications(h);
  const cases = h.sources.sandbox!.dataset.cases.filter((c) => c.filedAt <= clock.now().getTime() - 30 * 24 * 60 * MINUTE && c.court.datajudAlias);
  return { clock, h, source, cases };
}

/** The publication cycle's asks by number (the addressees' lookups ask without a window). */
const isPoll = (q: PublicationQuery) => q.numeroCnj !== undefined && q.desde !== undefined;
const polls = (source: ScriptedSource, from = 0) => source.queries.slice(from).filter(isPoll);

/** One cycle: the clock moves one minute and the due jobs run; returns the DJEN queries it made. */
async function cycle(h: Harness, clock: ManualClock, source: ScriptedSource): Promise<PublicationQuery[]> {
  clock.advance(CYCLE);
  const before = source.queries.length;
  await h.runJobs();
  return source.queries.slice(before);
}

/** A communication of the case published now (today in Brasília), as DJEN would list it. */
function publish(source: ScriptedSource, clock: ManualClock, c: { numero: string; court: { sigla: string } }) {
  const r = publicationRecord({ numeroCnj: c.numero, tribunal: c.court.sigla, dataDisponibilizacao: brasiliaDayBefore(clock.now()) });
  source.records.push(r);
  return r;
}

test('a HORARIA monitor hears a DJEN communication within one (scaled) hour and a DIARIA one within a day, once per number, within the budget', async () => {
  const { clock, h, source, cases } = await setup();
  const [hourly, daily] = [cases[0]!, cases[1]!];
  const [a, b] = [await h.createAccount({ credits: 100_000 }), await h.createAccount({ credits: 100_000 })];
  // Two accounts follow the hourly case, one of them daily: the shortest frequency sets the number's pace.
  await monitorCase(h, a, hourly.numero, 'HORARIA');
  await monitorCase(h, b, hourly.numero, 'DIARIA');
  await monitorCase(h, a, daily.numero, 'DIARIA');
  const first = polls(source).length;
  await cycle(h, clock, source); // first asks: the recent history of both numbers (history, not news)
  assert.deepEqual(
    polls(source, first)
      .map((q) => q.numeroCnj)
      .sort(),
    [hourly.numero, daily.numero].sort(),
    'each number asked once, for every account that follows it',
  );

  // Published right after the asks: the worst placement, a whole period to wait.
  const start = clock.now().getTime();
  const hourlyItem = publish(source, clock, hourly);
  const dailyItem = publish(source, clock, daily);
  const askedAt = new Map<string, number[]>();
  const heard = new Map<string, number>();
  const perRun = asksPerMinute(h.config);
  assert.equal(perRun, 10, 'half of 20 requests a minute');
  while (clock.now().getTime() - start < DIARIA + CYCLE) {
    const queries = await cycle(h, clock, source);
    assert.ok(queries.length <= 20, `${queries.length} DJEN queries in one minute: DJEN allows 20`);
    assert.ok(queries.filter(isPoll).length <= perRun, 'the monitored numbers take at most half of the budget');
    for (const q of queries.filter(isPoll)) askedAt.set(q.numeroCnj!, [...(askedAt.get(q.numeroCnj!) ?? []), clock.now().getTime() - start]);
    for (const [c, acc] of [
      [hourly, a],
      [daily, a],
    ] as const) {
      if (!heard.has(c.numero) && (await caseFeed(h, acc, c.numero, 'diario_movimentacao_nova')).length > 0) heard.set(c.numero, clock.now().getTime() - start);
    }
  }
  assert.ok(heard.get(hourly.numero)! <= HORARIA, `the HORARIA monitor heard it ${heard.get(hourly.numero)! / MINUTE} min after publication`);
  assert.ok(heard.get(daily.numero)! <= DIARIA, `the DIARIA monitor heard it ${heard.get(daily.numero)! / MINUTE} min after publication`);
  assert.ok(heard.get(daily.numero)! > HORARIA, 'the DIARIA number is not asked at the HORARIA pace');
  // Each number asked once per its period, exactly: the hourly one every 5 min, the daily one once in 120 min.
  const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);
  assert.deepEqual(new Set(gaps(askedAt.get(hourly.numero)!)), new Set([HORARIA]));
  assert.equal(askedAt.get(hourly.numero)!.length, Math.floor((DIARIA + CYCLE) / HORARIA));
  assert.deepEqual(askedAt.get(daily.numero), [DIARIA]);
  // Both accounts that follow the hourly case hear it, from the one ask.
  for (const [acc, item] of [
    [a, hourlyItem],
    [b, hourlyItem],
  ] as const) {
    const events = await caseFeed(h, acc, hourly.numero, 'diario_movimentacao_nova');
    assert.deepEqual(
      events.map((e) => e.data.publicacao.id),
      [item.id],
    );
  }
  assert.deepEqual(
    (await caseFeed(h, a, daily.numero, 'diario_movimentacao_nova')).map((e) => e.data.publicacao.id),
    [dailyItem.id],
  );
});

test('a monitor made HORARIA hears DJEN within the new period, not at its old daily ask', async () => {
  const { clock, h, source, cases } = await setup();
  const c = cases[2]!;
  const acc = await h.createAccount({ credits: 100_000 });
  await monitorCase(h, acc, c.numero, 'DIARIA');
  await cycle(h, clock, source);
  // The account's live monitor of the case, created again with another frequency: the change applied (200).
  const res = await h.inject({
    method: 'POST',
    url: '/v1/monitoramentos/processos',
    headers: acc.headers,
    payload: { numero_cnj: c.numero, frequencia: 'HORARIA' },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).data.frequencia, 'HORARIA');
  const from = polls(source).length;
  for (let t = 0; t < HORARIA; t += CYCLE) await cycle(h, clock, source);
  assert.deepEqual(
    polls(source, from).map((q) => q.numeroCnj),
    [c.numero],
  );
});

test('beyond the budget, the least recently asked number goes first, and the load is a gauge and one warn line a period', async () => {
  // 2 requests a minute: one number a cycle, five a HORARIA period.
  const { clock, h, source, cases } = await setup({ DJEN_REQUESTS_PER_MINUTE: '2' });
  assert.equal(asksPerMinute(h.config), 1);
  assert.equal(asksPerPeriod(h.config), 5);
  const acc = await h.createAccount({ credits: 100_000 });
  // Asked in the order R, Q, P (one a cycle), the reverse of their numbers' order; R is DIARIA.
  const [p, q, r] = cases
    .slice(3, 6)
    .map((x) => x.numero)
    .sort();
  await monitorCase(h, acc, r!, 'DIARIA');
  await cycle(h, clock, source);
  await monitorCase(h, acc, q!, 'HORARIA');
  await cycle(h, clock, source);
  await monitorCase(h, acc, p!, 'HORARIA');
  await cycle(h, clock, source);
  assert.deepEqual(
    polls(source).map((x) => x.numeroCnj),
    [r, q, p],
  );
  // A day later all three are due: by number P, Q, R; by how overdue Q, P, R; the least recently asked R, Q, P
  // (the first run after the pause asks what five minutes of the share allow: all three).
  clock.advance(DIARIA);
  const from = polls(source).length;
  for (let i = 0; i < 3; i++) await cycle(h, clock, source);
  assert.deepEqual(
    polls(source, from).map((x) => x.numeroCnj),
    [r, q, p],
  );

  // Seven more HORARIA numbers: they need nine asks and R's 1/24 a period, the budget asks five.
  const warns = () => h.logs.filter((l) => l.includes('hear DJEN late') && l.includes('TRAMITA_DJEN_CADERNOS')).length;
  assert.equal(warns(), 0, 'three numbers: within the budget');
  for (const x of cases.slice(6, 13)) await monitorCase(h, acc, x.numero, 'HORARIA');
  for (let t = 0; t < HORARIA; t += CYCLE) await cycle(h, clock, source);
  const gauge = async (kind: string) => (await telemetry.djenCaseAsksPerPeriod.get()).values.find((v) => v.labels.kind === kind)!.value;
  assert.ok(Math.abs((await gauge('needed')) - (9 + 1 / 24)) < 1e-9, String(await gauge('needed')));
  assert.equal(await gauge('budget'), 5);
  assert.ok((await telemetry.djenCaseNumbersDue.get()).values[0]!.value > 0, 'numbers are left due');
  assert.equal(warns(), 1);
  for (let t = 0; t < HORARIA; t += CYCLE) await cycle(h, clock, source);
  assert.equal(warns(), 2, 'one warn line a period, not one a cycle');
});

test("the asks' pace follows the time since the previous run, carries fractions and owes at most five cycles", () => {
  const pace = new CaseAskPace();
  const config = { djenRequestsPerMinute: 20, monitorIntervalMs: 3_600_000 };
  const at = (ms: number) => new Date(Date.parse('2026-03-02T12:00:00.000Z') + ms);
  assert.equal(pace.allowance(config, at(0)), 10, 'a first run: one cycle of half the budget');
  assert.equal(pace.allowance(config, at(90_000)), 15, 'a run that started 90 s after the previous one (the previous run took 30 s)');
  assert.equal(pace.allowance(config, at(90_000 + 3_600_000)), 50, 'after an hour without runs: five cycles, not an hour');
  const slow = new CaseAskPace();
  const half = { djenRequestsPerMinute: 1, monitorIntervalMs: 3_600_000 };
  assert.deepEqual(
    [0, 1, 2, 3, 4].map((i) => slow.allowance(half, at(i * MINUTE))),
    [0, 1, 0, 1, 0],
    'half an ask a minute: one every other minute',
  );
});
