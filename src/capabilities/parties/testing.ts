/** Party-route fixtures for the shared route suite (test/route-suite.test.ts): a sandbox CPF/CNPJ. */
import type { Harness } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';

const byDocument = (h: Harness) => `cpf_cnpj=${h.sources.sandbox!.dataset.examples().document}`;

export const routeFixtures: RouteFixtures = {
  queries: { '/v1/processos': byDocument, '/v1/envolvidos/resumo': byDocument },
};
