/**
 * What every request passes before validation, as one onRequest hook in the contract's order:
 * the request id (also a response header), authentication (auth.ts), the route class's rate limit
 * (rate-limit.ts), then the raw path and query values (input-guard.ts). One callback-style hook instead of three: on the hot path each Fastify hook,
 * and each promise, costs about as much as the work it does; authentication answers at once whenever
 * the key is remembered, so most requests pass without a promise at all.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { RateLimit, RouteClass } from './route-classes.ts';
import type { TSchema } from 'typebox';
import type { AccountStore } from '../accounts/store.ts';
import { authenticate } from './auth.ts';
import { guardRawInput, numericFields } from './input-guard.ts';
import { RateLimiter, type WindowCounter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's numeric path and query parameters (input-guard.ts), found once when it is registered. */
    tramitaNumeric?: { params: ReadonlySet<string>; query: ReadonlySet<string> };
  }
}

/** `counter`: where windows are counted (this process's memory, or shared by a PostgreSQL deployment's processes). */
export function installGate(app: FastifyInstance, accounts: AccountStore, limits: Record<RouteClass, RateLimit>, counter: WindowCounter): void {
  const limiter = new RateLimiter(limits, Date.now, counter);
  app.addHook('onClose', async () => {
    await limiter.close();
  });
  const limit = (req: FastifyRequest, reply: FastifyReply, routeClass: RouteClass | null) => {
    if (routeClass) limiter.check(req, reply, routeClass);
    guardRawInput(req, req.routeOptions.config.tramitaNumeric!);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.tramita) return;
    const schema = route.schema as { params?: TSchema; querystring?: TSchema } | undefined;
    route.config.tramitaNumeric = { params: numericFields(schema?.params), query: numericFields(schema?.querystring) };
  });

  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.header('x-request-id', req.id);
    const meta = req.routeOptions.config.tramita;
    if (!meta) return done();
    const limitThenDone = (err?: Error) => {
      if (err) return done(err);
      try {
        limit(req, reply, meta.class);
      } catch (e) {
        return done(e as Error);
      }
      done();
    };
    if (!meta.auth) return limitThenDone();
    try {
      authenticate(req, accounts, limitThenDone);
    } catch (err) {
      done(err as Error); // the key store failed before answering
    }
  });
}
