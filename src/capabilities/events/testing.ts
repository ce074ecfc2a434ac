/** Event-feed fixtures for the shared route suite (test/route-suite.test.ts): a delivered event to acknowledge. */
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { json } from '../../../test/harness.ts';
import { delivered } from '../webhooks/testing.ts';

export const routeFixtures: RouteFixtures = {
  setups: {
    '/v1/eventos/confirmar': async (h, owner) => {
      await delivered(h, owner);
      const feed = json(await h.inject({ method: 'GET', url: '/v1/eventos', headers: owner.headers }));
      return { cursor: feed.meta.nextCursor };
    },
  },
  bodies: { 'POST /v1/eventos/confirmar': (_h, params) => ({ cursor: params.cursor }) },
};
