/**
 * Per-source health shared across processes (issue 51): two processes' stores over one database
 * (PostgreSQL when DATABASE_URL is set, else SQLite) race for a failing source's probe period and
 * exactly one wins it; the period moved ahead, nobody wins again until it has passed; a healthy
 * source has no period to claim.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshDatabase } from '../../../test/harness.ts';
import { migrate } from '../db/database.ts';
import { DbSourceHealthStore } from './source-health.ts';

test("one process per probe period asks a failing source, whatever the processes' race", async (t) => {
  const fresh = await freshDatabase();
  t.after(async () => {
    await fresh.database.close();
    await fresh.drop();
  });
  await migrate(fresh.database);
  const a = new DbSourceHealthStore(fresh.database.db);
  const b = new DbSourceHealthStore(fresh.database.db);
  const t0 = '2026-03-11T15:00:00.000Z';
  const t1 = '2026-03-11T15:01:00.000Z';
  const t2 = '2026-03-11T15:02:00.000Z';
  await a.write({ fonte: 'djen', estado: 'failing', falhasSeguidas: 3, ultimaFalha: 'timeout', mudouEm: t0, proximaSondaEm: t1 });
  assert.deepEqual(
    (await b.read()).map((r) => [r.fonte, r.estado]),
    [['djen', 'failing']],
    'the other process reads the state',
  );
  assert.equal(await a.claimProbe('djen', t0, t1), false, 'not before its period');
  const race = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).claimProbe('djen', t1, t2)));
  assert.equal(race.filter(Boolean).length, 1, 'exactly one claim wins the period');
  assert.equal(await b.claimProbe('djen', t1, t2), false);
  assert.equal(await b.claimProbe('djen', t2, '2026-03-11T15:03:00.000Z'), true, 'the next period');
  await b.write({ fonte: 'djen', estado: 'healthy', falhasSeguidas: 0, ultimaFalha: 'timeout', mudouEm: t2, proximaSondaEm: null });
  assert.equal(await a.claimProbe('djen', '2026-03-11T16:00:00.000Z', '2026-03-11T16:01:00.000Z'), false, 'a healthy source has no probe');
});
