/**
 * What the shared route suite (test/route-suite.test.ts) needs to exercise the publication monitor
 * routes: an owned monitor for the paths with `:id` (written directly, priced 0) and a create body.
 */
import type { Harness, TestAccount } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { createMonitor } from '../../platform/monitoring/lifecycle.ts';
import { PUBLICATION_MONITORS } from './lifecycle.ts';

let next = 0;

async function ownedMonitor(h: Harness, owner: TestAccount): Promise<string> {
  const s = h.services;
  const termo = `Empresa de Teste ${++next}`;
  const { monitor } = await createMonitor(s, PUBLICATION_MONITORS, {
    accountId: owner.accountId,
    origem: 'PUBLICACOES',
    target: { tipo: 'TERMO', valor: termo.toLowerCase(), termo },
    priceCentavos: 0,
  });
  return monitor.id;
}

export const routeFixtures: RouteFixtures = {
  owned: { '/v1/monitoramentos/publicacoes/:id': async (h, owner) => ({ id: await ownedMonitor(h, owner) }) },
  bodies: { '/v1/monitoramentos/publicacoes': () => ({ termo: 'Construtora Exemplo Ltda' }) },
};
