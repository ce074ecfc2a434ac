/**
 * The console's records: people, invitations, sessions and the audit log. Tokens (an invitation's,
 * a session's) are random 256-bit strings given to the person once; only their SHA-256 is stored, so
 * a copy of the database opens no session.
 */
import { hash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { addMs, iso, type Clock } from '../../platform/clock.ts';
import type { AuditLogTable, ConsoleSessionsTable, ConsoleUsersTable, DB, SearchLogsTable } from '../../platform/db/schema.ts';
import { newId } from '../../platform/ids.ts';

export const INVITE_TTL_MS = 72 * 3_600_000;
/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 12 * 3_600_000;
/** …and in any case this long after sign-in. */
export const SESSION_MAX_MS = 7 * 24 * 3_600_000;
/** Failed sign-ins in a row that lock the person out, and for how long. */
export const LOCKOUT_AFTER = 5;
export const LOCKOUT_MS = 15 * 60_000;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Where a change came from, for the audit log. */
export interface Origin {
  ip: string | null;
  userAgent: string | null;
}

export interface SessionUser {
  session: ConsoleSessionsTable;
  user: ConsoleUsersTable;
}

export class ConsoleStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  constructor(db: Kysely<DB>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  #now(): string {
    return iso(this.#clock.now());
  }

  async users(accountId: string): Promise<ConsoleUsersTable[]> {
    return this.#db.selectFrom('console_users').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute();
  }

  /**
   * A one-time link's token for this e-mail in this account: the person is created if new (without a
   * password), and any earlier unused link of theirs stops working. Refused (null) when the e-mail
   * belongs to a person of another account.
   */
  async invite(accountId: string, email: string): Promise<{ token: string; user: ConsoleUsersTable; expiresAt: string } | null> {
    const normalized = email.trim().toLowerCase();
    const now = this.#now();
    return this.#db.transaction().execute(async (trx) => {
      let user = await trx.selectFrom('console_users').selectAll().where('email', '=', normalized).executeTakeFirst();
      if (user && user.account_id !== accountId) return null;
      if (!user) {
        user = {
          id: newId('usr'),
          account_id: accountId,
          email: normalized,
          password_hash: null,
          failed_signins: 0,
          locked_until: null,
          last_signin_at: null,
          created_at: now,
          updated_at: now,
        };
        await trx.insertInto('console_users').values(user).execute();
      }
      await trx.updateTable('console_invites').set({ used_at: now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute();
      const token = newToken();
      const expiresAt = iso(addMs(this.#clock.now(), INVITE_TTL_MS));
      await trx
        .insertInto('console_invites')
        .values({ token_hash: tokenHash(token), user_id: user.id, created_at: now, expires_at: expiresAt, used_at: null })
        .execute();
      return { token, user, expiresAt };
    });
  }

  /** The person of a live (unused, unexpired) invitation. */
  async invitation(token: string): Promise<ConsoleUsersTable | undefined> {
    return this.#db
      .selectFrom('console_invites')
      .innerJoin('console_users', 'console_users.id', 'console_invites.user_id')
      .selectAll('console_users')
      .where('console_invites.token_hash', '=', tokenHash(token))
      .where('console_invites.used_at', 'is', null)
      .where('console_invites.expires_at', '>', this.#now())
      .executeTakeFirst();
  }

  /** Sets the password through a live invitation, once: false when the link is used or expired. */
  async acceptInvitation(token: string, passwordHash: string): Promise<ConsoleUsersTable | undefined> {
    const now = this.#now();
    return this.#db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('console_invites')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
      if (!used) return undefined;
      // A new password ends every session opened with the old one.
      await trx.deleteFrom('console_sessions').where('user_id', '=', used.user_id).execute();
      await trx
        .updateTable('console_users')
        .set({ password_hash: passwordHash, failed_signins: 0, locked_until: null, updated_at: now })
        .where('id', '=', used.user_id)
        .execute();
      return trx.selectFrom('console_users').selectAll().where('id', '=', used.user_id).executeTakeFirst();
    });
  }

  /**
   * Reserves one sign-in attempt for this e-mail before its password is hashed, and decides the lock,
   * in one UPDATE: attempts sent at once are counted one by one by the database, so none of them
   * checks a password once LOCKOUT_AFTER are counted (issue 45; a count written back from a row read
   * before the ~100 ms hash let 20 concurrent guesses through). The LOCKOUT_AFTER-th attempt in a
   * row starts the lock: LOCKOUT_MS from it, unless it succeeds (openSession resets the count). An
   * attempt after the lock ended starts a new streak. The right side of every SET reads the row as it
   * was, on both engines. Undefined for an e-mail nobody has.
   */
  async reserveSignIn(email: string): Promise<{ user: ConsoleUsersTable; allowed: boolean } | undefined> {
    const now = this.#now();
    const lockEnds = iso(addMs(this.#clock.now(), LOCKOUT_MS));
    const lockEnded = sql<boolean>`locked_until is not null and locked_until <= ${now}`;
    const user = await this.#db
      .updateTable('console_users')
      .set({
        failed_signins: sql<number>`case when ${lockEnded} then 1 else failed_signins + 1 end`,
        locked_until: sql<string | null>`case
          when ${lockEnded} then null
          when locked_until is null and failed_signins + 1 >= ${LOCKOUT_AFTER} then ${lockEnds}
          else locked_until end`,
        updated_at: now,
      })
      .where('email', '=', email.trim().toLowerCase())
      .returningAll()
      .executeTakeFirst();
    return user && { user, allowed: user.failed_signins <= LOCKOUT_AFTER };
  }

  /** A new session for the person; returns the cookie's token. */
  async openSession(user: ConsoleUsersTable, origin: Origin): Promise<string> {
    const token = newToken();
    const now = this.#now();
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .insertInto('console_sessions')
        .values({
          token_hash: tokenHash(token),
          user_id: user.id,
          csrf_token: newToken(),
          ip: origin.ip,
          user_agent: origin.userAgent?.slice(0, 300) ?? null,
          created_at: now,
          last_seen_at: now,
          expires_at: iso(addMs(this.#clock.now(), SESSION_MAX_MS)),
        })
        .execute();
      await trx
        .updateTable('console_users')
        .set({ failed_signins: 0, locked_until: null, last_signin_at: now, updated_at: now })
        .where('id', '=', user.id)
        .execute();
    });
    return token;
  }

  /** The live session of a cookie's token, its last request noted (at most once a minute). */
  async session(token: string): Promise<SessionUser | undefined> {
    const row = await this.#db.selectFrom('console_sessions').selectAll().where('token_hash', '=', tokenHash(token)).executeTakeFirst();
    if (!row) return undefined;
    const now = this.#clock.now();
    if (row.expires_at <= iso(now) || Date.parse(row.last_seen_at) + SESSION_IDLE_MS <= now.getTime()) {
      await this.#db.deleteFrom('console_sessions').where('token_hash', '=', row.token_hash).execute();
      return undefined;
    }
    const user = await this.#db.selectFrom('console_users').selectAll().where('id', '=', row.user_id).executeTakeFirst();
    if (!user) return undefined;
    if (Date.parse(row.last_seen_at) + 60_000 < now.getTime()) {
      await this.#db
        .updateTable('console_sessions')
        .set({ last_seen_at: iso(now) })
        .where('token_hash', '=', row.token_hash)
        .execute();
    }
    return { session: row, user };
  }

  async closeSession(token: string): Promise<void> {
    await this.#db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash(token)).execute();
  }

  /** Signs the person out everywhere; returns how many sessions ended. */
  async closeAllSessions(userId: string): Promise<number> {
    const r = await this.#db.deleteFrom('console_sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async sessions(userId: string): Promise<ConsoleSessionsTable[]> {
    return this.#db.selectFrom('console_sessions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
  }

  /** One line of the account's audit log. `details` must hold no secret (it is shown to the account). */
  async audit(entry: {
    accountId: string;
    userId: string | null;
    actor: string;
    action: string;
    target?: string | null;
    details?: Record<string, unknown> | null;
    origin?: Origin;
  }): Promise<void> {
    await this.#db
      .insertInto('audit_log')
      .values({
        id: newId('aud'),
        account_id: entry.accountId,
        user_id: entry.userId,
        actor: entry.actor,
        action: entry.action,
        target: entry.target ?? null,
        details: entry.details ? JSON.stringify(entry.details) : null,
        ip: entry.origin?.ip ?? null,
        user_agent: entry.origin?.userAgent?.slice(0, 300) ?? null,
        created_at: this.#now(),
      })
      .execute();
  }

  async auditLog(accountId: string, limit: number, before?: string): Promise<AuditLogTable[]> {
    let q = this.#db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId);
    if (before) q = q.where('id', '<', before);
    return q.orderBy('id', 'desc').limit(limit).execute();
  }

  /** The account's latest queries (its search logs), newest first. */
  async recentSearches(accountId: string, limit: number): Promise<SearchLogsTable[]> {
    return this.#db
      .selectFrom('search_logs')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * The account's debits since `since`, summed per UTC hour (`hora`, yyyy-mm-ddThh: the same `substr`
   * on both engines) and query type, from its search logs (keyed by account and time; the ledger has no
   * index by time).
   */
  async spendByHour(accountId: string, since: string): Promise<{ hora: string; query_type: string | null; centavos: number }[]> {
    return this.#db
      .selectFrom('search_logs')
      .select((eb) => [
        eb.fn<string>('substr', ['created_at', eb.val(1), eb.val(13)]).as('hora'),
        'query_type',
        eb.fn.sum<number>('charged_centavos').as('centavos'),
      ])
      .where('account_id', '=', accountId)
      .where('charged_centavos', '>', 0)
      .where('created_at', '>=', since)
      .groupBy(['hora', 'query_type'])
      .execute();
  }
}
