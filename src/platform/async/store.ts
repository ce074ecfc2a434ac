/**
 * Pending operations (spec §3.2): a row is written when an operation outlives the synchronous window,
 * and completed with the exact final response (status, headers, body) that the status URL then replays.
 * The running process renews `lease_until`; a lapsed lease means the process died, and the sweeper
 * finishes the row with OPERATION_INTERRUPTED (uncharged) so pollers never wait forever.
 */
import type { Kysely, Transaction } from 'kysely';
import { addMs, iso, type Clock } from '../clock.ts';
import type { AsyncRequestsTable, DB } from '../db/schema.ts';
import { ApiError, errorBody } from '../errors.ts';
import { jsonResponse, toColumns, type StoredResponse } from '../http/stored-response.ts';

export class AsyncRequestStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  readonly #retentionMs: number;
  readonly #leaseMs: number;
  constructor(db: Kysely<DB>, clock: Clock, opts: { retentionHours: number; leaseMs: number }) {
    this.#db = db;
    this.#clock = clock;
    this.#retentionMs = opts.retentionHours * 3_600_000;
    this.#leaseMs = opts.leaseMs;
  }

  get leaseMs(): number {
    return this.#leaseMs;
  }

  async open(r: { id: string; accountId: string; method: string; path: string }): Promise<void> {
    const now = this.#clock.now();
    await this.#db
      .insertInto('async_requests')
      .values({
        id: r.id,
        account_id: r.accountId,
        method: r.method,
        path: r.path,
        status: 'running',
        response_status: null,
        response_headers: null,
        response_body: null,
        response_encoding: null,
        created_at: iso(now),
        completed_at: null,
        expires_at: iso(addMs(now, this.#retentionMs)),
        lease_until: iso(addMs(now, this.#leaseMs)),
      })
      .execute();
  }

  async renew(id: string): Promise<void> {
    await this.#db
      .updateTable('async_requests')
      .set({ lease_until: iso(addMs(this.#clock.now(), this.#leaseMs)) })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  /** Stores the final response; inside `trx` when it must commit with the charge that pays for it. */
  async complete(id: string, response: StoredResponse, trx: Kysely<DB> | Transaction<DB> = this.#db): Promise<void> {
    const now = this.#clock.now();
    await trx
      .updateTable('async_requests')
      .set({
        status: 'done',
        ...toColumns(response),
        completed_at: iso(now),
        lease_until: null,
        // Retention counts from completion, so a slow operation's result is still kept the full period.
        expires_at: iso(addMs(now, this.#retentionMs)),
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  /** The account's request, or undefined (unknown, another account's, or expired: all the same 404). */
  async find(id: string, accountId: string): Promise<AsyncRequestsTable | undefined> {
    const row = await this.#db.selectFrom('async_requests').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (!row || row.expires_at <= iso(this.#clock.now())) return undefined;
    return row;
  }

  /** The account's operations newest first (unexpired), `limit` of them after `before`. */
  async list(accountId: string, limit: number, before?: { c: string; id: string }): Promise<AsyncRequestsTable[]> {
    let q = this.#db.selectFrom('async_requests').selectAll().where('account_id', '=', accountId).where('expires_at', '>', iso(this.#clock.now()));
    if (before) q = q.where((eb) => eb.or([eb('created_at', '<', before.c), eb.and([eb('created_at', '=', before.c), eb('id', '<', before.id)])]));
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Housekeeping (the maintenance job): orphans finished, expired results dropped. */
  async sweep(): Promise<{ interrupted: number; results: number }> {
    return { interrupted: await this.interruptOrphans(), results: await this.purgeExpired() };
  }

  /** Finishes operations whose process died (lease lapsed) with an uncharged OPERATION_INTERRUPTED. */
  async interruptOrphans(): Promise<number> {
    const now = iso(this.#clock.now());
    const orphans = await this.#db.selectFrom('async_requests').select('id').where('status', '=', 'running').where('lease_until', '<', now).execute();
    for (const { id } of orphans) {
      const error = new ApiError('OPERATION_INTERRUPTED');
      await this.complete(id, jsonResponse(error.status, errorBody(error, id)));
    }
    return orphans.length;
  }

  async purgeExpired(): Promise<number> {
    const r = await this.#db.deleteFrom('async_requests').where('expires_at', '<=', iso(this.#clock.now())).where('status', '=', 'done').executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
