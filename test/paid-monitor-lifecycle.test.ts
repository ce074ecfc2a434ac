/**
 * The paid-monitor lifecycle (platform/monitoring/lifecycle.ts) on every keyed monitor kind: two
 * creates of the same monitor at once make one monitor, one 201 and one charge (`<id>:1`); the other
 * gets the same monitor, 200, `existing`, free. The race itself (a concurrent create committing between
 * our read and our insert) is forced through the plan, so the winner path runs on either engine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.ts';
import { createMonitor, type MonitorAsk, type MonitorPlan } from '../src/platform/monitoring/lifecycle.ts';
import type { PaidMonitorRow } from '../src/platform/monitoring/tables.ts';
import { parseCnjWithCourt } from '../src/platform/identifiers/cnj.ts';
import { CASE_MONITORS } from '../src/capabilities/monitors/lifecycle.ts';
import { ADMIN_MONITORS } from '../src/capabilities/administrative/monitor-lifecycle.ts';
import { PUBLICATION_MONITORS } from '../src/capabilities/publication-monitors/lifecycle.ts';
import { sandboxNups } from '../src/capabilities/administrative/testing.ts';
import { createHarness, json, type TestAccount } from './harness.ts';
import { testNow } from './test-date.ts';

const h = await createHarness({
  clock: new ManualClock(testNow()),
  env: { TRAMITA_RATE_LIMITS: 'lookup=100000/60s,async=100000/60s,monitor=100000/60s,account=100000/60s' },
});
test.after(() => h.close());
const db = h.services.db;

const caseNumber = h.sources.sandbox!.dataset.cases.find((c) => c.court.datajudAlias)!.numero;

/** Each keyed kind: its create route and body, and the plan and ask of the same monitor. */
const KINDS = [
  {
    name: 'case monitor',
    url: '/v1/monitoramentos/processos',
    body: { numero_cnj: caseNumber },
    plan: CASE_MONITORS,
    ask: (accountId: string) => ({ accountId, cnj: parseCnjWithCourt(caseNumber), priceCentavos: 0 }),
  },
  {
    name: 'administrative monitor',
    url: '/v1/monitoramentos/processos-administrativos',
    body: { nup: sandboxNups(h).encontrado },
    plan: ADMIN_MONITORS,
    ask: (accountId: string) => ({ accountId, nup: sandboxNups(h).encontrado, priceCentavos: 0 }),
  },
  {
    name: 'publication monitor',
    url: '/v1/monitoramentos/publicacoes',
    body: { termo: 'Construtora Corrida Ltda' },
    plan: PUBLICATION_MONITORS,
    ask: (accountId: string) =>
      ({
        accountId,
        origem: 'PUBLICACOES',
        target: { tipo: 'TERMO', valor: 'construtora corrida ltda', termo: 'Construtora Corrida Ltda' },
        priceCentavos: 0,
      }) as const,
  },
  {
    name: 'intimação monitor',
    url: '/v1/intimacoes/oab',
    body: { oab: 'SP424242' },
    plan: PUBLICATION_MONITORS,
    ask: (accountId: string) => ({ accountId, origem: 'INTIMACOES', target: { tipo: 'OAB', valor: 'SP424242', termo: 'SP424242' }, priceCentavos: 0 }) as const,
  },
];

async function debits(accountId: string) {
  return db.selectFrom('ledger').select('operation_id').where('account_id', '=', accountId).where('kind', '=', 'debit').execute();
}

/** The created monitor's id in an answer (intimações answer a list of monitors). */
const idOf = (data: { id?: string; monitoramentos?: { id: string }[] }) => data.id ?? data.monitoramentos![0].id;

/** The plan, but its first lookup of the live monitor misses: as if a concurrent create committed right after it. */
function missingOnce<R extends PaidMonitorRow, A extends MonitorAsk>(plan: MonitorPlan<R, A>): MonitorPlan<R, A> {
  let missed = false;
  return {
    ...plan,
    key: (ask) => {
      const key = plan.key!(ask);
      if (missed) return key;
      missed = true;
      return Object.fromEntries(Object.keys(key).map((k) => [k, 'not-yet-committed']));
    },
  };
}

for (const kind of KINDS) {
  test(`${kind.name}: two creates at once make one monitor and one charge; the other is the same monitor, free`, async () => {
    const acc: TestAccount = await h.createAccount({ credits: 10_000 });
    const post = () => h.inject({ method: 'POST', url: kind.url, headers: acc.headers, payload: kind.body });
    const answers = await Promise.all([post(), post()]);
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 201], answers.map((r) => r.body).join('\n'));
    const [id, other] = answers.map((r) => idOf(json(r).data));
    assert.equal(other, id);
    assert.deepEqual(
      (await debits(acc.accountId)).map((d) => d.operation_id),
      [`${id}:1`],
    );
  });

  test(`${kind.name}: the race lost between read and insert returns the winner, uncharged`, async () => {
    const acc = await h.createAccount({ credits: 0 });
    const winner = await createMonitor(h.services, kind.plan as MonitorPlan<PaidMonitorRow, MonitorAsk>, kind.ask(acc.accountId));
    assert.equal(winner.kind, 'created');
    let charged = 0;
    const loser = await createMonitor(h.services, missingOnce(kind.plan as MonitorPlan<PaidMonitorRow, MonitorAsk>), kind.ask(acc.accountId), async () => {
      charged++;
    });
    assert.equal(loser.kind, 'existing');
    assert.equal(loser.monitor.id, winner.monitor.id);
    assert.equal(charged, 0);
  });
}
