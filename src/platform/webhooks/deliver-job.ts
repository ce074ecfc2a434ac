/**
 * The attempts of a delivery (spec §6.1): POST the stored body to the monitor's URL or the account's
 * current URL, signed with the account's current secret (a regenerated secret takes effect at the next
 * attempt), within the timeout, success on any 2xx. A failure records the attempt with the time of the
 * next one, `min(120, 2^attempt)` minutes later, and puts the job back in the queue for exactly then;
 * the last attempt marks the delivery FALHOU. The attempt's record and the job's new state commit in
 * one transaction (on SQLite grouped with other deliveries' through group commit), so a crash before
 * that commit repeats that one attempt (at least once, never lost).
 */
import type { Transaction } from 'kysely';
import { addMs, iso } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import type { JobContext, JobHandler } from '../jobs/worker.ts';
import type { Services } from '../services.ts';
import { DELIVERY_JOB, deliveryRetryDelayMs } from './deliveries.ts';
import type { SendResult } from './send.ts';
import { signDelivery } from './sign.ts';

export interface AttemptOptions {
  attempt: number;
  maxAttempts: number;
  /** A test delivery is sent even while the webhook is inactive. */
  evenIfInactive?: boolean;
  /** Runs in the transaction that records the attempt (the job's settlement). */
  also?: (trx: Transaction<DB>, r: SendResult, nextAttemptAt: Date | null) => Promise<void>;
}

/** One attempt, recorded; undefined when nothing was sent (not pending any more, or discarded: inactive or no URL). */
export async function attemptDelivery(s: Services, deliveryId: string, o: AttemptOptions): Promise<SendResult | undefined> {
  const { configs, deliveries, sender } = s.webhooks;
  const found = await deliveries.getWithConfig(deliveryId);
  if (!found || found.delivery.status !== 'PENDENTE') return undefined;
  const { delivery, config } = found;
  const url = delivery.url ?? config?.url ?? null;
  if (!config || (!config.ativo && !o.evenIfInactive) || url === null) {
    await deliveries.discard(delivery.id, !config?.ativo ? 'webhook inactive at attempt time' : 'no webhook URL at attempt time');
    return undefined;
  }
  const startedAt = s.clock.now();
  const { secret, token } = configs.credentials(config);
  const headers = signDelivery({
    body: delivery.body, secret, token, event: delivery.event_name, deliveryId: delivery.id, messageId: delivery.event_id,
    timestampSeconds: Math.floor(startedAt.getTime() / 1000),
  });
  const result = await sender.send({ url, headers, body: delivery.body });
  const last = o.attempt >= o.maxAttempts;
  const next = result.ok || last ? null : addMs(s.clock.now(), deliveryRetryDelayMs(o.attempt));
  await deliveries.recordAttempt(delivery.id, {
    attempt: o.attempt, url, startedAt: iso(startedAt), statusCode: result.statusCode, latencyMs: result.latencyMs, error: result.error,
    responseExcerpt: result.responseExcerpt, nextAttemptAt: next && iso(next), status: result.ok ? 'ENTREGUE' : last ? 'FALHOU' : 'PENDENTE',
  }, o.also && ((trx) => o.also!(trx, result, next)));
  return result;
}

export function deliveryJob(s: Services): JobHandler {
  return {
    kind: DELIVERY_JOB,
    retryDelayMs: deliveryRetryDelayMs,
    async run(payload: unknown, ctx: JobContext) {
      await attemptDelivery(s, (payload as { deliveryId: string }).deliveryId, {
        attempt: ctx.job.attempts, maxAttempts: ctx.job.max_attempts,
        // The attempt and the job's next state commit together: a crash cannot separate them.
        also: (trx, r, next) => {
          const why = r.error ?? `receiver answered ${r.statusCode}`;
          return ctx.settleWithin(trx, r.ok ? {} : next ? { retryAt: next, error: why } : { failed: why });
        },
      });
    },
  };
}
