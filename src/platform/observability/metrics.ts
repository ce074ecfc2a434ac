/** Prometheus metrics of one app instance (a registry of its own, so tests can build several apps). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  /** Counts one answered request (called from the app's onResponse hook). */
  observe(req: FastifyRequest, reply: FastifyReply): void;
}

export function httpMetrics(opts: { defaultMetrics: boolean }): HttpMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'tramita_http_requests_total',
    help:
      'HTTP responses by route pattern, method, route class (spec §8: the rate-limit classes; "ops" for /healthz, ' +
      '/readyz, /metrics and the docs) and status.',
    labelNames: ['method', 'route', 'class', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'tramita_http_request_duration_seconds',
    help: 'Time to answer, by route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5, 30],
    registers: [registry],
  });
  // Labelled children kept per (method, route, status): prom-client would otherwise hash the label
  // object on every request. The set is small: route patterns × methods × statuses.
  const series = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  const observe = (req: FastifyRequest, reply: FastifyReply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const status = String(reply.statusCode);
    const key = `${req.method} ${route} ${status}`;
    let s = series.get(key);
    if (!s) {
      const routeClass = (req.routeOptions.config as { tramita?: { class?: string } } | undefined)?.tramita?.class ?? 'ops';
      const counter = requests.labels(req.method, route, routeClass, status);
      const histogram = duration.labels(req.method, route);
      s = { count: () => counter.inc(), time: (seconds) => histogram.observe(seconds) };
      series.set(key, s);
    }
    s.count();
    s.time(reply.elapsedTime / 1000);
  };
  return { registry, observe };
}
