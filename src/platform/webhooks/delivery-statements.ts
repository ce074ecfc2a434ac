/**
 * The statements of a batch of delivery attempts (deliveries.ts), written once as Kysely builders:
 * compiled once per batch shape on the hot path (db/prepared.ts), and built as they are inside
 * PostgreSQL's one-statement WITHs.
 */
import type { Kysely, QueryCreator } from 'kysely';
import type { DB, DeliveryStatus, WebhookAttemptsTable, WebhookDeliveriesTable } from '../db/schema.ts';

/** One attempt's outcome, as deliveries.ts records it. */
export interface AttemptRecord {
  attempt: number;
  url: string | null;
  startedAt: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** When the next attempt comes; null when this one settled the delivery. */
  nextAttemptAt: string | null;
  status: DeliveryStatus;
}

export const ATTEMPT_COLUMNS = [
  'id',
  'delivery_id',
  'attempt',
  'url',
  'started_at',
  'status_code',
  'latency_ms',
  'error',
  'response_excerpt',
  'next_attempt_at',
] as const satisfies ReadonlyArray<keyof WebhookAttemptsTable>;

export const DELIVERY_STATE_COLUMNS = [
  'status',
  'attempts',
  'last_status_code',
  'last_error',
  'next_attempt_at',
  'updated_at',
  'delivered_at',
] as const satisfies ReadonlyArray<keyof WebhookDeliveriesTable>;

/** A delivery's columns after an attempt that ended as `a` says. */
export function deliveryStateAfter(a: AttemptRecord, now: string) {
  return {
    status: a.status,
    attempts: a.attempt,
    last_status_code: a.statusCode,
    last_error: a.error,
    next_attempt_at: a.nextAttemptAt,
    updated_at: now,
    delivered_at: a.status === 'ENTREGUE' ? now : null,
  };
}

/** The attempts' rows exist (startAttempt committed them): an upsert updates them all in one statement. */
// biome-ignore lint/suspicious/noExplicitAny: rows of values, or of a prepared query's markers (db/prepared.ts)
export function recordAttempts(qc: QueryCreator<DB>, rows: ReadonlyArray<Record<(typeof ATTEMPT_COLUMNS)[number], any>>) {
  return qc
    .insertInto('webhook_attempts')
    .values(rows)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        status_code: eb.ref('excluded.status_code'),
        latency_ms: eb.ref('excluded.latency_ms'),
        error: eb.ref('excluded.error'),
        response_excerpt: eb.ref('excluded.response_excerpt'),
        next_attempt_at: eb.ref('excluded.next_attempt_at'),
      })),
    );
}

/**
 * A delivery and its account's webhook configuration, the configuration's columns prefixed `c_`, and
 * the health of the endpoint it goes to (its URL, or the account URL), prefixed `e_`: null for every
 * healthy endpoint, which has no row (endpoint-health.ts).
 */
export function selectWithConfig(db: Kysely<DB>) {
  return db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('webhook_configs as c', 'c.account_id', 'd.account_id')
    .leftJoin('webhook_endpoints as e', (j) => j.onRef('e.account_id', '=', 'd.account_id').on((eb) => eb('e.url', '=', eb.fn.coalesce('d.url', 'c.url'))))
    .selectAll('d')
    .select(['e.failing_since as e_failing_since', 'e.disabled_at as e_disabled_at'])
    .select([
      'c.account_id as c_account_id',
      'c.url as c_url',
      'c.token_sealed as c_token_sealed',
      'c.secret_sealed as c_secret_sealed',
      'c.secret_prefix as c_secret_prefix',
      'c.formato as c_formato',
      'c.ativo as c_ativo',
      'c.eventos as c_eventos',
      'c.nomes_legados as c_nomes_legados',
      'c.feed_cursor as c_feed_cursor',
      'c.created_at as c_created_at',
      'c.updated_at as c_updated_at',
    ]);
}
