/**
 * Operational endpoints for the operator (not part of /v1), documented in docs/operations.md:
 * - `/healthz`: the process lives (no I/O).
 * - `/readyz`: 200 when the database answers and every migration is applied, else 503; the body also
 *   says whether due jobs are being claimed and what each source's state is. Those two never fail
 *   readiness: an API process stays useful while a worker or an upstream is down, and taking it out
 *   of a load balancer would not help.
 * - `/metrics`: Prometheus text, HTTP series plus the background work (docs/ops/metrics.md).
 */
import type { FastifyInstance } from 'fastify';
import { pendingMigrations, ping } from '../../platform/db/database.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import { sourcesStatus } from '../../platform/ports/status.ts';
import type { Services } from '../../platform/services.ts';
import { refreshStoreGauges } from './snapshot.ts';
import { oldestDueJob } from './store.ts';

/** A due job unclaimed this long means no worker is taking jobs (on PostgreSQL: is `tramita worker` running?). */
const STALLED_AFTER_MS = 5 * 60_000;

async function jobsState(s: Services): Promise<{ estado: 'em_dia' | 'atrasados'; atrasoSegundos: number }> {
  const now = s.clock.now();
  const oldest = await oldestDueJob(s.db, now.toISOString());
  const lagMs = oldest ? Math.max(0, now.getTime() - Date.parse(oldest)) : 0;
  return { estado: lagMs > STALLED_AFTER_MS ? 'atrasados' : 'em_dia', atrasoSegundos: Math.round(lagMs / 1000) };
}

export function operationsRoutes(app: FastifyInstance, s: Services): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const engine = s.database.engine;
    try {
      await ping(s.database);
    } catch (err) {
      app.log.warn({ err: { message: (err as Error).message } }, 'readiness check failed: the database does not answer');
      return reply.code(503).send({ status: 'unavailable', engine, database: 'unreachable' });
    }
    const pending = await pendingMigrations(s.database);
    const jobs = await jobsState(s);
    const fontes = sourcesStatus(s.sources)
      .filter((f) => f.configurada)
      .map(({ nome, sandbox, estado, ultimaFalha }) => ({ nome, sandbox, estado, ultimaFalha }));
    if (pending.length) return reply.code(503).send({ status: 'unavailable', engine, database: 'ok', migrations: { pending }, jobs, fontes });
    return { status: 'ready', engine, database: 'ok', migrations: { pending: [] }, jobs, fontes };
  });

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const { metrics } = app.tramita;
    try {
      await refreshStoreGauges(s);
    } catch (err) {
      // The HTTP and process series are still worth serving; the gauges keep their last values.
      app.log.warn({ err: { message: (err as Error).message } }, 'metrics: the store gauges could not be read');
    }
    const text = `${await metrics.metrics()}\n${await telemetry.registry.metrics()}`;
    return reply.type(metrics.contentType).send(text);
  });
}
