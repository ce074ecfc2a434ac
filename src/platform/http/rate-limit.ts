/**
 * Rate limits per route class and per API key (spec §8), with @fastify/rate-limit: one counter per
 * (class, key), fixed windows, in memory per process. 429 carries `Retry-After` and `RateLimit-*`.
 * Runs right after auth; a limited request never reaches billing. Unauthenticated routes count per IP.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimit, RouteClass } from '../../config.ts';
import { ApiError } from './errors.ts';

export async function installRateLimits(app: FastifyInstance, limits: Record<RouteClass, RateLimit>): Promise<void> {
  // Give each route its class's limit before the plugin's own onRoute hook reads it.
  app.addHook('onRoute', (route) => {
    const cls = route.config?.tramita?.class;
    if (!cls) return;
    const limit = limits[cls];
    route.config = { ...route.config, rateLimit: { max: limit.max, timeWindow: limit.windowMs, groupId: cls } } as typeof route.config;
  });
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    keyGenerator: (req: FastifyRequest) => (req.auth ? req.auth.keyId : `ip:${req.ip}`),
    errorResponseBuilder: (req, ctx) => {
      const seconds = Math.max(1, Math.ceil(ctx.ttl / 1000));
      const routeClass = req.routeOptions.config.tramita?.class;
      return new ApiError('RATE_LIMITED', `More than ${ctx.max} requests in the "${routeClass}" class this window; retry in ${seconds} s.`, { routeClass, limit: ctx.max, retryAfterSeconds: seconds });
    },
  });
}
