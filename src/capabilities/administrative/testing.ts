/** The shared route suite's fixtures for administrative processes: a sandbox NUP, and a monitor owned by the account. */
import type { Harness, TestAccount } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { createMonitor } from '../../platform/monitoring/lifecycle.ts';
import { ADMIN_MONITORS } from './monitor-lifecycle.ts';

export function sandboxNups(h: Harness): { encontrado: string; naoEncontrado: string } {
  return h.sources.sandbox!.protocolo.examples();
}

/** Written directly, priced 0: the suite's owners may have no credits, and no rate-limit budget is spent. */
async function ownedMonitor(h: Harness, owner: TestAccount): Promise<string> {
  const { monitor } = await createMonitor(h.services, ADMIN_MONITORS, { accountId: owner.accountId, nup: sandboxNups(h).encontrado, priceCentavos: 0 });
  return monitor.id;
}

export const routeFixtures: RouteFixtures = {
  owned: {
    '/v1/processos/administrativos/nup/:nup': async (h) => ({ nup: sandboxNups(h).encontrado }),
    '/v1/monitoramentos/processos-administrativos/:id': async (h, owner) => ({ id: await ownedMonitor(h, owner) }),
  },
  bodies: {
    'POST /v1/monitoramentos/processos-administrativos': (h) => ({ nup: sandboxNups(h).encontrado }),
    'POST /v1/processos/administrativos/nup/:nup': () => ({}),
  },
  // Public data: the same process for every account.
  publicData: ['/v1/processos/administrativos/nup/:nup'],
};
