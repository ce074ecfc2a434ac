/**
 * What the shared route suite (test/route-suite.test.ts) needs to exercise the monitor routes: an
 * owned monitor for each path with `:id`, and a valid body for each POST.
 */
import type { Harness, TestAccount } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { parseCnjWithCourt } from '../../platform/identifiers/cnj.ts';
import { createMonitor } from '../../platform/monitoring/lifecycle.ts';
import { CASE_MONITORS } from './lifecycle.ts';

/** A different sandbox case number per call (any valid number of a DataJud court would do). */
let next = 0;
function caseNumber(h: Harness): string {
  const cases = h.sources.sandbox!.dataset.cases.filter((c) => c.court.datajudAlias);
  return cases[next++ % cases.length].numero;
}

/**
 * A monitor owned by `owner`, written directly: no HTTP request, so no rate-limit budget spent, and
 * priced 0 because the suite's owners may have no credits.
 */
async function ownedMonitor(h: Harness, owner: TestAccount): Promise<string> {
  const { monitor } = await createMonitor(h.services, CASE_MONITORS, { accountId: owner.accountId, cnj: parseCnjWithCourt(caseNumber(h)), priceCentavos: 0 });
  return monitor.id;
}

export const routeFixtures: RouteFixtures = {
  owned: { '/v1/monitoramentos/processos/:id': async (h, owner) => ({ id: await ownedMonitor(h, owner) }) },
  bodies: { '/v1/monitoramentos/processos': (h) => ({ numero_cnj: caseNumber(h) }) },
};
