/**
 * Court pages of monitored cases on their own schedule (issue 43 item 3; capabilities/monitors/court-pages.ts):
 * every monitored case of a court whose consultation is enabled has its page read once per its
 * frequency, whenever DataJud is due, at most what half the court host's budget serves per cycle (here
 * 6 requests a minute: one page a cycle), the least recently read first; and a DJEN communication of a
 * case puts its page first in line. "Read" is what the case store says: `cases.detalhes_em`.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.ts';
import { createHarness, monitorTestEnv } from './harness.ts';
import { monitorCase } from './case-feed.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clock = new ManualClock('2026-01-01T00:00:00.000Z');
const h = await createHarness({
  clock,
  env: monitorTestEnv(HOUR, { TRAMITA_CONSULTAS: 'TJSP', TRAMITA_CONSULTA_REQUESTS_PER_MINUTE: '6', TRAMITA_FEED_SETTLE_MS: '0' }),
});
after(() => h.close());
const sandbox = h.sources.sandbox!;
const db = h.services.db;
const numbers = sandbox.dataset.cases
  .filter((c) => c.court.sigla === 'TJSP' && c.court.datajudAlias && c.filedAt <= clock.now().getTime() - 30 * DAY)
  .slice(0, 3)
  .map((c) => c.numero);

/** One cycle later (the monitor cycle runs every minute here); the numbers whose page was read in it. */
async function cycle(advanceMs = 60_000): Promise<string[]> {
  clock.advance(advanceMs);
  const at = clock.now().toISOString();
  await h.runJobs();
  const rows = await db.selectFrom('cases').select(['numero_cnj', 'detalhes_em']).where('numero_cnj', 'in', numbers).execute();
  return rows.filter((r) => r.detalhes_em !== null && r.detalhes_em >= at).map((r) => r.numero_cnj);
}

test('every monitored case of a consultation court has its page read once a day, one a cycle within the budget, in turn', async () => {
  assert.equal(numbers.length, 3);
  const acc = await h.createAccount({ credits: 10_000 });
  // Looked up first, so the monitors' first checks find them stored (a new case's first answer reads its details too).
  for (const n of numbers) await h.settle(await h.inject({ method: 'GET', url: `/v1/processos/cnj/${n}`, headers: acc.headers }), acc.headers);
  await h.runJobs();
  for (const n of numbers) await monitorCase(h, acc, n, 'DIARIA');
  const firstDay = [await cycle(), await cycle(), await cycle()];
  assert.deepEqual(
    firstDay.map((read) => read.length),
    [1, 1, 1],
    'one page a cycle',
  );
  assert.deepEqual(firstDay.flat().toSorted(), numbers.toSorted(), 'each case in turn');
  for (let i = 0; i < 5; i++) assert.deepEqual(await cycle(), [], 'no page again before its day is up');

  const nextDay = [await cycle(DAY), await cycle(), await cycle()];
  assert.deepEqual(nextDay, firstDay, 'a day later, again each in turn, the least recently read first');
});

test('a DJEN communication of a monitored case puts its page first in line', async () => {
  // After the first test: the three pages were read in turn, and the last one read would be read last again.
  const order = await db.selectFrom('case_monitors').select('numero_cnj').where('numero_cnj', 'in', numbers).orderBy('proxima_pagina_em').execute();
  const last = order.at(-1)!.numero_cnj;
  sandbox.djen.publish({ numeroProcesso: last, texto: 'Intimação fictícia: fica a parte intimada da decisão de hoje (sandbox).' });
  const read = [...(await cycle(DAY)), ...(await cycle())];
  assert.ok(read.includes(last), `the case with DJEN news is read within two cycles (read: ${read.join(', ')})`);
  assert.equal(read.length, 2);
});
