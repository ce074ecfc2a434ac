/**
 * buildApp(services, capabilities) → a Fastify instance with every capability's routes, ready for
 * inject() or listen().
 * The order of the platform's hooks is the contract's order: request id → auth → rate limit →
 * validation → idempotency → handler (price check, async window, charge) → envelope.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Registry } from 'prom-client';
import type { Capabilities } from './capabilities/index.ts';
import { newId } from './platform/ids.ts';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './platform/http/error-handler.ts';
import { fastifyTrustProxy } from './platform/http/proxy-trust.ts';
import { installGate } from './platform/http/gate.ts';
import { SharedWindows } from './platform/http/shared-windows.ts';
import { LocalWindows, type WindowCounter } from './platform/http/rate-limit.ts';
import { buildValidator } from './platform/http/validation.ts';
import { buildSerializer } from './platform/http/lazy-compile.ts';
import { installJsonBody } from './platform/http/json-body.ts';
import { installIdempotency } from './platform/http/idempotency.ts';
import { BackgroundOperations } from './platform/async/window.ts';
import { wrapOperation } from './platform/http/operation.ts';
import { openApiOptions } from './platform/http/openapi.ts';
import type { RegisteredRoute, RouteSchemas } from './platform/http/route.ts';
import { httpMetrics } from './platform/observability/metrics.ts';
import { lazyChildLogger } from './platform/observability/request-logger.ts';
import { startSourceProber } from './platform/observability/source-health.ts';
import { probeUpstream } from './sources/http/probe.ts';
import { upstreamBaseUrl } from './platform/observability/upstreams.ts';
import type { Services } from './platform/services.ts';

export interface AppContext {
  services: Services;
  capabilities: Capabilities;
  routes: RegisteredRoute[];
  metrics: Registry;
  background: BackgroundOperations;
  /** Where rate windows are counted, for the API's route classes and the console's sign-in alike. */
  windows: WindowCounter;
}

declare module 'fastify' {
  interface FastifyInstance {
    tramita: AppContext;
  }
}

export interface BuildOptions {
  /** Extra routes mounted through exactly the same platform hooks (tests and the benchmark use this). */
  extraRoutes?: (app: FastifyInstance, services: Services) => void;
  /** Process-wide metrics (CPU, memory, event loop); off in tests that build many apps. */
  defaultMetrics?: boolean;
}

export async function buildApp(services: Services, capabilities: Capabilities, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    // One access line per request comes from our onResponse hook (route pattern, no query string).
    logController: new LogController({ disableRequestLogging: true }),
    // req.log is made only when a request logs something (observability/request-logger.ts).
    childLoggerFactory: lazyChildLogger,
    genReqId: () => newId('req'),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    exposeHeadRoutes: false,
    return503OnClosing: true,
    // Errors raised before any route runs answer in the envelope too (error-handler.ts).
    frameworkErrors,
    clientErrorHandler,
    // Text parts coerce types (and scalars into arrays), JSON bodies only scalars (http/validation.ts).
    // Route schemas are compiled at each route's first request (http/lazy-compile.ts).
    schemaController: { compilersFactory: { buildValidator, buildSerializer } },
  });

  const routes: RegisteredRoute[] = [];
  const background = new BackgroundOperations();
  const metrics = httpMetrics({ defaultMetrics: options.defaultMetrics ?? false });
  // On PostgreSQL every API process counts into the same windows (http/shared-windows.ts).
  const windows = services.database.engine === 'postgres' ? new SharedWindows(services.db, services.log, config.rateLimitSyncMs) : new LocalWindows();
  app.decorate('tramita', { services, capabilities, routes, metrics: metrics.registry, background, windows });
  // Failing upstreams are asked again in the background until they answer (issue 51).
  const prober = startSourceProber({ baseUrlOf: upstreamBaseUrl, probe: probeUpstream });
  app.addHook('onClose', () => prober.stop());

  // Without TRAMITA_PUBLIC_URL absolute URLs point at this server's own address (absolute-url.ts): once
  // it listens, the port it took (PORT=0 picks one) is that address's.
  app.addHook('onListen', async () => {
    const bound = app.server.address();
    if (bound && typeof bound === 'object') config.port = bound.port;
  });
  installErrorHandling(app);
  installJsonBody(app);
  // request id → auth → rate limit, as one hook (gate.ts).
  installGate(app, services.accounts, config.rateLimits, windows);
  // Callback-style: on every request, an async hook's promise is pure overhead.
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req, reply);
    // Checked first: building the line's object on every request costs even when the level drops it.
    if (services.log.isLevelEnabled('info')) {
      req.log.info(
        {
          route: req.routeOptions.url ?? 'unmatched',
          method: req.method,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
          requestId: req.id,
          account: req.auth?.account.id,
        },
        'request',
      );
    }
    done();
  });

  // Collect every business route, check it is priced, and wrap its handler in the operation runner.
  const deps = {
    clock: services.clock,
    config,
    prices: services.prices,
    ledger: services.ledger,
    accounts: services.accounts,
    asyncRequests: services.asyncRequests,
    background,
  };
  app.addHook('onRoute', (route) => {
    const meta = route.config?.tramita;
    if (!meta) return;
    const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
    routes.push({ method, url: route.url, meta, schema: (route.schema ?? {}) as RouteSchemas, file: route.config?.tramitaFile ?? null });
    if (meta.charge) services.prices.assertPriced(meta.charge);
    route.handler = wrapOperation(meta, route.handler as never, deps) as typeof route.handler;
  });

  await app.register(swagger, openApiOptions(services));
  installIdempotency(app, services.db, services.clock, {
    ttlHours: config.idempotencyTtlHours,
    staleAfterMs: config.syncWindowMs + 60_000 / config.devTimeScale,
  });

  for (const capability of capabilities.all) capability.routes(app);
  options.extraRoutes?.(app, services);

  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, tryItOutEnabled: true } });
  await app.ready();
  return app;
}
