/** Prometheus metrics of one app instance (a registry of its own, so tests can build several apps). */
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function installMetrics(app: FastifyInstance, opts: { defaultMetrics: boolean }): Registry {
  const registry = new Registry();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'tramita_http_requests_total', help: 'HTTP responses by route pattern, method and status.',
    labelNames: ['method', 'route', 'status'] as const, registers: [registry],
  });
  const duration = new Histogram({
    name: 'tramita_http_request_duration_seconds', help: 'Time to answer, by route pattern.',
    labelNames: ['method', 'route'] as const, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5, 30],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    duration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  return registry;
}
