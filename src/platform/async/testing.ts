/** The poll route's fixture for the shared route suite (test/route-suite.test.ts): a pending operation of the owner's. */
import type { RouteFixtures } from '../../../test/route-fixtures.ts';

export const routeFixtures: RouteFixtures = {
  owned: {
    '/v1/requests/:requestId': async (h, owner) => {
      const id = `req_${'0'.repeat(9)}${Math.random().toString(36).slice(2, 14).padEnd(12, '0')}`;
      await h.services.asyncRequests.open({ id, accountId: owner.accountId, method: 'GET', path: '/v1/x' });
      return { requestId: id };
    },
  },
};
