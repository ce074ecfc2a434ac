/**
 * What the shared route suite (test/route-suite.test.ts) needs for the lawyer routes and the gazettes
 * of a case: the sandbox's example OAB and case, an owned OAB search for the path with `:id`, and the
 * search's body.
 */
import type { Harness } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { createOabSearch } from './oab-search.ts';

const exampleOab = (h: Harness) => h.sources.sandbox!.djen.examples().oab!;

const owned: RouteFixtures['owned'] = {
  '/v1/processos/numero/:numero/diarios-oficiais': async (h) => ({ numero: h.sources.sandbox!.djen.examples().numeroProcesso! }),
  '/v1/advogados/oab/monitoramentos/:id': async (h, owner) => {
    const oab = exampleOab(h);
    const search = await createOabSearch(h.services, {
      accountId: owner.accountId,
      tribunal: 'TJSP',
      oab: { uf: oab.uf, numero: oab.numero, canonical: `${oab.uf}${oab.numero}` },
      permitirParcial: false,
      enviarCallback: false,
      requestId: 'req_fixture',
      priceCentavos: 0,
    });
    return { id: String(search.id) };
  },
};

const oabQuery = (h: Harness) => `oab_estado=${exampleOab(h).uf}&oab_numero=${exampleOab(h).numero}`;

export const routeFixtures: RouteFixtures = {
  owned,
  queries: { '/v1/advogados/processos': oabQuery, '/v1/advogados/diarios-oficiais': oabQuery, '/v1/advogados/resumo': oabQuery },
  bodies: { '/v1/advogados/oab/monitorar': (h) => ({ tribunal: 'TJSP', oab_estado: exampleOab(h).uf, oab_numero: exampleOab(h).numero }) },
  // Public court data: the gazettes of a case answer any account alike.
  publicData: ['/v1/processos/numero/:numero/diarios-oficiais'],
};
