/**
 * The attempts of a delivery (spec §6.1): POST the stored body to the monitor's URL or the account's
 * current URL, signed with the account's current secret (a regenerated secret takes effect at the next
 * attempt), within the timeout, success on any 2xx. A failure records the attempt with the time of the
 * next one, `min(120, 2^attempt)` minutes later, and puts the job back in the queue for exactly then;
 * the last attempt marks the delivery FALHOU. Each attempt is recorded as started before it is sent,
 * and its outcome and the job's new state commit in one transaction (written with the other
 * deliveries' of the same event-loop turn: DeliveryStore batches them): a crash in between leaves the attempt in the history as
 * interrupted, counted, and the next claim makes the next attempt (at least once, never lost); when
 * no attempt is left the delivery ends FALHOU instead of staying PENDENTE.
 */
import { jobHandler } from '../jobs/job-type.ts';
import { addMs, iso } from '../clock.ts';
import type { JobContext, JobHandler, JobSettlement } from '../jobs/worker.ts';
import type { Services } from '../services.ts';
import { DELIVERY, INTERRUPTED_ATTEMPT, type EndpointState } from './deliveries.ts';
import { announceDisabled } from './endpoint-notice.ts';
import type { SendResult } from './send.ts';
import { signDelivery } from './sign.ts';
import { telemetry } from '../observability/telemetry.ts';

export interface AttemptOptions {
  /** A test delivery is sent even while the webhook is inactive. */
  evenIfInactive?: boolean;
  /** The job's settlement, written in the transaction that records the attempt; `r` is undefined when no attempt was left. */
  settle?: (r: SendResult | undefined, nextAttemptAt: Date | null) => JobSettlement;
}

/**
 * One attempt, recorded; undefined when nothing was sent (not pending any more, discarded: inactive or
 * no URL, or every attempt already used up: then FALHOU). The attempt's number is the delivery's own
 * count, started attempts included, so one cut by a crash is in the history and counts once.
 */
export async function attemptDelivery(s: Services, deliveryId: string, o: AttemptOptions = {}): Promise<SendResult | undefined> {
  const { configs, deliveries, sender } = s.webhooks;
  const found = await deliveries.getWithConfig(deliveryId);
  if (found?.delivery.status !== 'PENDENTE') return undefined;
  const { delivery, config, endpoint } = found;
  if (delivery.attempts >= delivery.max_attempts) {
    await deliveries.exhaust(delivery.id, o.settle?.(undefined, null));
    return undefined;
  }
  const url = delivery.url ?? config?.url ?? null;
  if (!config || (!config.ativo && !o.evenIfInactive) || url === null) {
    await deliveries.discard(delivery.id, !config?.ativo ? 'webhook inactive at attempt time' : 'no webhook URL at attempt time');
    return undefined;
  }
  if (endpoint?.disabledAt && !o.evenIfInactive) {
    await deliveries.hold(delivery.id, delivery.account_id, url);
    return undefined;
  }
  const attempt = delivery.attempts + 1;
  const startedAt = s.clock.now();
  const attemptId = await deliveries.startAttempt(delivery.id, attempt, url, iso(startedAt));
  const { secret, token } = configs.credentials(config);
  const headers = signDelivery({
    body: delivery.body,
    secret,
    token,
    event: delivery.event_name,
    deliveryId: delivery.id,
    messageId: delivery.event_id,
    timestampSeconds: Math.floor(startedAt.getTime() / 1000),
    product: s.config.webhookProduct,
  });
  const result = await sender.send({ url, headers, body: delivery.body });
  const last = attempt >= delivery.max_attempts;
  const next = result.ok || last ? null : addMs(s.clock.now(), s.webhooks.planner.retryDelayMs(attempt));
  await deliveries.recordAttempt(
    delivery.id,
    attemptId,
    {
      attempt,
      url,
      startedAt: iso(startedAt),
      statusCode: result.statusCode,
      latencyMs: result.latencyMs,
      error: result.error,
      responseExcerpt: result.responseExcerpt,
      nextAttemptAt: next && iso(next),
      status: result.ok ? 'ENTREGUE' : last ? 'FALHOU' : 'PENDENTE',
    },
    o.settle?.(result, next),
  );
  observeAttempt(s, delivery, attempt, result, last, next);
  // A test delivery probes the receiver; it does not make or mend an endpoint's health.
  if (!o.evenIfInactive) await recordHealth(s, delivery.account_id, url, result, endpoint);
  return result;
}

/** The endpoint's health after an attempt: a write only on a failure, or on the success that ends a failing period. */
async function recordHealth(s: Services, accountId: string, url: string, r: SendResult, endpoint: EndpointState | undefined): Promise<void> {
  const health = s.webhooks.endpoints;
  if (r.ok) {
    if (endpoint) await health.succeeded(accountId, url);
    return;
  }
  const disabled = await health.failed(accountId, url, failureReason(r));
  if (disabled) await announceDisabled(s, disabled);
}

/** Every attempt moves the delivery metrics; a failed one is a warn line with the ids to find it (never the URL: it may carry a token). */
function observeAttempt(
  s: Services,
  d: { id: string; account_id: string; event_id: string; event_name: string },
  attempt: number,
  r: SendResult,
  last: boolean,
  next: Date | null,
): void {
  const outcome = r.ok ? 'delivered' : last ? 'gave_up' : 'failed';
  telemetry.deliveries.labels(outcome, String(attempt)).inc();
  telemetry.deliveryDuration.labels(outcome).observe(r.latencyMs / 1000);
  if (r.ok) return;
  s.log.warn(
    {
      delivery: d.id,
      account: d.account_id,
      event: d.event_id,
      eventName: d.event_name,
      attempt,
      status: r.statusCode,
      error: r.error,
      latencyMs: r.latencyMs,
      nextAttemptAt: next && iso(next),
    },
    last ? 'webhook delivery failed for good (FALHOU)' : 'webhook delivery attempt failed; retried later',
  );
}

const failureReason = (r: SendResult): string => r.error ?? `receiver answered ${r.statusCode}`;

export function deliveryJob(s: Services): JobHandler {
  return jobHandler(DELIVERY, {
    retryDelayMs: (attempt) => s.webhooks.planner.retryDelayMs(attempt),
    async run({ deliveryId }, ctx: JobContext) {
      await attemptDelivery(s, deliveryId, {
        // The attempt and the job's next state commit together: a crash cannot separate them.
        settle: (r, next) => {
          if (!r) return ctx.settling({ failed: INTERRUPTED_ATTEMPT });
          const why = failureReason(r);
          return ctx.settling(r.ok ? {} : next ? { retryAt: next, error: why } : { failed: why });
        },
      });
    },
    // Claimed more often than it may be attempted: each of those runs died mid-attempt. Its delivery fails for good.
    async exhausted({ deliveryId }) {
      await s.webhooks.deliveries.exhaust(deliveryId);
    },
  });
}
