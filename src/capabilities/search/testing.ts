/** Search-route fixtures for the shared route suite (test/route-suite.test.ts). */
import type { RouteFixtures } from '../../../test/route-fixtures.ts';

export const routeFixtures: RouteFixtures = {
  queries: { '/v1/busca/termo': () => 'q=teste', '/v1/busca': () => 'q=teste' },
};
