/** defineRoute refuses, at start, a charge way the runner could not honour (route.ts ChargeWay). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { defineRoute, type RouteMeta } from './route.ts';

const declare = (meta: Partial<RouteMeta>) => {
  const app = Fastify();
  try {
    defineRoute(app, {
      method: 'POST',
      url: '/v1/x',
      schema: {},
      handler: async () => ({ data: {} }),
      meta: { class: 'monitor', auth: true, tag: 'T', summary: 's', ...meta },
    });
  } finally {
    void app.close();
  }
};

test('an in-handler charge cannot be async-eligible: its pending answer would commit apart from its charge', () => {
  assert.throws(() => declare({ charge: 'test.lookup', chargeWay: 'in-handler', async: true }), /in-handler charge cannot answer 202/);
  assert.doesNotThrow(() => declare({ charge: 'test.lookup', chargeWay: 'in-handler' }));
  assert.doesNotThrow(() => declare({ charge: 'test.lookup', chargeWay: 'deferred' }));
});

test('a charge way needs a query type to charge', () => {
  assert.throws(() => declare({ chargeWay: 'deferred' }), /without a query type/);
});
