/**
 * Endpoint health (issue 55 item 7), as Svix and Stripe do it: an endpoint (an account and the URL a
 * delivery goes to: the account URL or a monitor's `webhook_url`) whose every attempt has failed for
 * TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS, with no success in between, is disabled. Its deliveries are then
 * kept (RETIDA, nothing sent; deliveries.ts `hold`) until the account re-enables it, which resends them
 * or discards them as the account asks.
 *
 * Only failures write: the first failure after a success inserts the endpoint's row, a success deletes
 * it, and an endpoint with no row (every healthy one) costs the hot path nothing but a join on an empty
 * primary key (delivery-statements.ts `selectWithConfig`).
 */
import type { Kysely } from 'kysely';
import { addMs, iso, type Clock } from '../clock.ts';
import { inLists } from '../db/in-lists.ts';
import type { DB, WebhookEndpointsTable } from '../db/schema.ts';
import type { DeliveryPlanner } from './planner.ts';

export interface EndpointHealthView extends WebhookEndpointsTable {
  /** Deliveries kept (RETIDA) for this endpoint while it is disabled. */
  held: number;
}

const HOUR_MS = 3_600_000;

export const NOT_RESENT = 'held while its endpoint was disabled; not resent when the endpoint was re-enabled (it can still be resent)';

export class EndpointHealth {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  readonly #planner: DeliveryPlanner;
  readonly #disableAfterMs: number;

  constructor(db: Kysely<DB>, clock: Clock, planner: DeliveryPlanner, disableAfterHours: number) {
    this.#db = db;
    this.#clock = clock;
    this.#planner = planner;
    this.#disableAfterMs = disableAfterHours * HOUR_MS;
  }

  /** A delivery to the endpoint succeeded: a failing (not disabled) endpoint is healthy again. */
  async succeeded(accountId: string, url: string): Promise<void> {
    await this.#db.deleteFrom('webhook_endpoints').where('account_id', '=', accountId).where('url', '=', url).where('disabled_at', 'is', null).execute();
  }

  /**
   * An attempt to the endpoint failed: the first failure starts its failing period; a failure when the
   * period has run out disables it. Returns the endpoint's row when this call disabled it (exactly one
   * caller does, whatever the number of workers failing at once).
   */
  async failed(accountId: string, url: string, error: string): Promise<WebhookEndpointsTable | undefined> {
    const now = this.#clock.now();
    await this.#db
      .insertInto('webhook_endpoints')
      .values({ account_id: accountId, url, failing_since: iso(now), last_failure_at: iso(now), last_error: error, disabled_at: null })
      .onConflict((oc) => oc.columns(['account_id', 'url']).doUpdateSet({ last_failure_at: iso(now), last_error: error }))
      .execute();
    if (this.#disableAfterMs === 0) return undefined;
    const disabled = await this.#db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: iso(now) })
      .where('account_id', '=', accountId)
      .where('url', '=', url)
      .where('disabled_at', 'is', null)
      .where('failing_since', '<=', iso(addMs(now, -this.#disableAfterMs)))
      .executeTakeFirst();
    if (Number(disabled.numUpdatedRows) === 0) return undefined;
    return this.#db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).where('url', '=', url).executeTakeFirst();
  }

  /** The account's endpoints that are failing or disabled, with how many deliveries each keeps; healthy ones have no row. */
  async list(accountId: string): Promise<EndpointHealthView[]> {
    const rows = await this.#db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).orderBy('url').execute();
    const held = await this.#db
      .selectFrom('webhook_held_deliveries')
      .select(['url', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('account_id', '=', accountId)
      .groupBy('url')
      .execute();
    const counts = new Map(held.map((h) => [h.url, Number(h.n)]));
    return rows.map((r) => ({ ...r, held: counts.get(r.url) ?? 0 }));
  }

  /** The disabled endpoints of an account, by URL (a notice goes to the others). */
  async disabledUrls(accountId: string): Promise<Set<string>> {
    const rows = await this.#db
      .selectFrom('webhook_endpoints')
      .select('url')
      .where('account_id', '=', accountId)
      .where('disabled_at', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.url));
  }

  /**
   * Re-enables a disabled endpoint: its failure history is forgotten, and the deliveries it kept go
   * back in the queue with a whole retry ladder (`resend`), or end DESCARTADA (each can still be resent
   * alone). Undefined when the endpoint is not disabled.
   */
  async reenable(accountId: string, url: string, resend: boolean): Promise<{ resent: number; discarded: number } | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom('webhook_endpoints')
        .where('account_id', '=', accountId)
        .where('url', '=', url)
        .where('disabled_at', 'is not', null)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return undefined;
      const held = await trx
        .deleteFrom('webhook_held_deliveries')
        .where('account_id', '=', accountId)
        .where('url', '=', url)
        .returning('delivery_id')
        .execute();
      const ids = held.map((h) => h.delivery_id);
      for (const some of inLists(ids)) {
        if (resend) await this.#planner.requeue(trx, some);
        else
          await trx
            .updateTable('webhook_deliveries')
            .set({ status: 'DESCARTADA', last_error: NOT_RESENT, next_attempt_at: null, updated_at: iso(this.#clock.now()) })
            .where('id', 'in', some)
            .where('status', '=', 'RETIDA')
            .execute();
      }
      return { resent: resend ? ids.length : 0, discarded: resend ? 0 : ids.length };
    });
  }
}
