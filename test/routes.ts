/**
 * Routes that only tests mount (through `buildApp(…, { extraRoutes })`), going through exactly the
 * platform hooks a real capability does: a charged async lookup that can be told to be slow or to
 * fail in each way, a charged POST with a body, a POST whose handler charges inside its own
 * transaction (as monitor and radar creation do), and a zero-priced one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../src/platform/services.ts';
import { Type } from 'typebox';
import { ApiError } from '../src/platform/errors.ts';
import { defineRoute } from '../src/platform/http/route.ts';

export const FAILURES = ['not_found', 'source', 'timeout', 'internal', 'bad_input'] as const;

function maybeFail(fail: string | undefined): void {
  if (fail === 'not_found') throw new ApiError('NOT_FOUND', 'No such thing.');
  if (fail === 'source') throw new ApiError('SOURCE_UNAVAILABLE');
  if (fail === 'timeout') throw new ApiError('SOURCE_TIMEOUT');
  if (fail === 'bad_input') throw new ApiError('INVALID_CNJ');
  if (fail === 'internal') throw new Error('boom: a bug with a secret trm_0000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA in it');
}

export const calls = { charged: 0, post: 0, subscriptions: 0 };

export function testRoutes(app: FastifyInstance, services: Services): void {
  // Time spent before the route runs (a slow client body, a busy event loop): `?arrivalDelayMs=` on /v1/test/charged.
  app.addHook('onRequest', async (req) => {
    const m = /[?&]arrivalDelayMs=(\d+)/.exec(req.url);
    if (m && req.url.startsWith('/v1/test/charged')) await sleep(Number(m[1]));
  });
  defineRoute(app, {
    method: 'GET',
    url: '/v1/test/charged',
    meta: { class: 'lookup', auth: true, charge: 'test.lookup', async: true, tag: 'Test', summary: 'charged async test operation' },
    schema: {
      querystring: Type.Object(
        {
          delayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
          arrivalDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
          fail: Type.Optional(Type.Union(FAILURES.map((f) => Type.Literal(f)))),
        },
        { additionalProperties: false },
      ),
      data: Type.Object({ ok: Type.Boolean() }),
    },
    handler: async (req) => {
      calls.charged++;
      if (req.query.delayMs) await sleep(req.query.delayMs);
      maybeFail(req.query.fail);
      return { data: { ok: true, echo: 'charged' }, meta: { source: 'test' } };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/test/orders',
    meta: { class: 'async', auth: true, charge: 'test.lookup', async: true, tag: 'Test', summary: 'charged POST with a body' },
    schema: {
      body: Type.Object(
        {
          nome: Type.String({ minLength: 1 }),
          quantidade: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
          delayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
          fail: Type.Optional(Type.Union(FAILURES.map((f) => Type.Literal(f)))),
        },
        { additionalProperties: false },
      ),
    },
    handler: async (req) => {
      calls.post++;
      if (req.body.delayMs) await sleep(req.body.delayMs);
      maybeFail(req.body.fail);
      return { status: 201, data: { pedido: `ped_${calls.post}`, nome: req.body.nome, quantidade: req.body.quantidade ?? 1 } };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/test/subscriptions',
    meta: {
      class: 'monitor',
      auth: true,
      charge: 'test.lookup',
      chargeWay: 'in-handler',
      tag: 'Test',
      summary: "POST charged inside its handler's transaction",
    },
    schema: {
      body: Type.Object(
        {
          nome: Type.String({ minLength: 1 }),
          /** Time the handler takes after its charge committed, before it answers. */
          delayAfterChargeMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
        },
        { additionalProperties: false },
      ),
    },
    handler: async (req, op) => {
      calls.subscriptions++;
      await services.ledger.transact((trx) => op.chargeIn(trx, { status: 201 }));
      if (req.body.delayAfterChargeMs) await sleep(req.body.delayAfterChargeMs);
      return { status: 201, data: { assinatura: `ass_${calls.subscriptions}`, nome: req.body.nome } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/test/free',
    meta: { class: 'reference', auth: true, charge: 'test.free', tag: 'Test', summary: 'zero-priced operation' },
    schema: {},
    handler: async () => ({ data: { free: true } }),
  });
}
