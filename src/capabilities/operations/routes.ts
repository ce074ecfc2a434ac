/** Operational endpoints for the operator (not part of /v1): liveness, readiness and Prometheus metrics. */
import type { FastifyInstance } from 'fastify';
import { ping } from '../../platform/db/database.ts';
import type { Services } from '../../platform/services.ts';

export function operationsRoutes(app: FastifyInstance, s: Services): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    try {
      await ping(s.database);
      return { status: 'ready', engine: s.database.engine };
    } catch (err) {
      app.log.warn({ err }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', engine: s.database.engine });
    }
  });

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const { metrics } = app.tramita;
    return reply.type(metrics.contentType).send(await metrics.metrics());
  });
}
