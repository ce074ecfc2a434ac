/**
 * Accounts and their API keys: what the CLI manages and what authentication reads. Key lookups are
 * remembered a few seconds (key-cache.ts: the bound on a revocation made by another process).
 */
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import { iso } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { prepared, preparedIn, type Prepared } from '../db/prepared.ts';
import { generateKey, hashKey } from './keys.ts';
import { KeyCache, REFRESH_EVERY_MS } from './key-cache.ts';
import { powerOfTwoChunks } from '../db/batch-shapes.ts';
import { tickLoader } from '../db/tick-batch.ts';
import { ApiError } from '../errors.ts';
import type { Account, KeyOwner } from './types.ts';

export type { Account, KeyOwner };

export interface IssuedKey {
  id: string;
  prefix: string;
  key: string;
}

type KeyRow = Account & { key_id: string; revoked_at: string | null };

const KEY_USE_RESOLUTION_MS = 60_000;

export class AccountStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  /** Runs on every authenticated request: compiled once. */
  readonly #byHash: Prepared<'hash', KeyRow>;
  /** The keys in use read again together (#refresh). */
  readonly #byHashes;
  readonly #balances: (accountId: string) => Promise<number | undefined>;
  readonly #keys: KeyCache;
  /** Active (unrevoked) keys an account may hold (TRAMITA_MAX_API_KEYS). */
  readonly #maxActiveKeys: number;
  /** When the cached keys in use were last read again (the cache's clock, key-cache.ts). */
  #lastRefresh = 0;
  #refreshing = false;
  /** When this process last wrote each key's `last_used_at` (ms). */
  readonly #lastNoted = new Map<string, number>();
  constructor(db: Kysely<DB>, clock: Clock, maxActiveKeys: number, keys = new KeyCache()) {
    this.#db = db;
    this.#clock = clock;
    this.#maxActiveKeys = maxActiveKeys;
    this.#keys = keys;
    // The balances asked for in one turn, read by one query: on SQLite a statement outside a transaction
    // is a read transaction of its own, whose WAL lock (two fcntl calls) costs more than the read.
    const balances = preparedIn((ids) => db.selectFrom('accounts').select(['id', 'balance_centavos']).where('id', 'in', ids));
    this.#balances = tickLoader(async (ids: string[]) => new Map((await balances(db, ids)).rows.map((r) => [r.id, r.balance_centavos])));
    this.#byHash = prepared(['hash'], (p) => this.#keyRows().where('api_keys.hash', '=', p.hash));
    this.#byHashes = preparedIn((hashes) => this.#keyRows().select('api_keys.hash').where('api_keys.hash', 'in', hashes));
  }

  /** A key with its account: what authentication needs. */
  #keyRows() {
    return this.#db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['api_keys.id as key_id', 'api_keys.revoked_at'])
      .select([
        'accounts.id',
        'accounts.name',
        'accounts.plan',
        'accounts.status',
        'accounts.balance_centavos',
        'accounts.sandbox',
        'accounts.created_at',
        'accounts.updated_at',
      ]);
  }

  async create(input: { name: string; plan: string; sandbox?: boolean }): Promise<Account> {
    const now = iso(this.#clock.now());
    const account: Account = {
      id: newId('acc'),
      name: input.name,
      plan: input.plan,
      status: 'active',
      balance_centavos: 0,
      sandbox: input.sandbox ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    await this.#db.insertInto('accounts').values(account).execute();
    return account;
  }

  async get(id: string): Promise<Account | undefined> {
    return this.#db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async list(): Promise<Account[]> {
    return this.#db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  async count(): Promise<number> {
    const row = await this.#db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Returns false when no such account exists. */
  async setStatus(id: string, status: Account['status']): Promise<boolean> {
    const r = await this.#db
      .updateTable('accounts')
      .set({ status, updated_at: iso(this.#clock.now()) })
      .where('id', '=', id)
      .executeTakeFirst();
    this.#keys.forgetAccount(id);
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * A new key for the account, unless it already holds TRAMITA_MAX_API_KEYS active ones (422
   * API_KEY_LIMIT_REACHED): keys would otherwise multiply whatever is counted per key (issue 45). The
   * no-op UPDATE of the account row comes first so that two creations at once are counted one after
   * the other: it takes the row's lock on PostgreSQL, and the write lock at once on SQLite.
   */
  async issueKey(accountId: string, name: string | null = null): Promise<IssuedKey> {
    const k = generateKey();
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .updateTable('accounts')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', accountId)
        .execute();
      const active = await trx
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(active.n) >= this.#maxActiveKeys) throw new ApiError('API_KEY_LIMIT_REACHED', undefined, { limit: this.#maxActiveKeys });
      await trx
        .insertInto('api_keys')
        .values({
          id: k.id,
          account_id: accountId,
          prefix: k.prefix,
          hash: k.hash,
          created_at: iso(this.#clock.now()),
          revoked_at: null,
          name,
          last_used_at: null,
        })
        .execute();
    });
    return { id: k.id, prefix: k.prefix, key: k.plaintext };
  }

  async listKeys(accountId: string) {
    return this.#db
      .selectFrom('api_keys')
      .select(['id', 'prefix', 'name', 'created_at', 'last_used_at', 'revoked_at'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute();
  }

  /**
   * Returns the revoked key's account and prefix (for the audit log), or undefined when the key does
   * not exist, was already revoked, or (when `accountId` is given) belongs to another account.
   */
  async revokeKey(keyId: string, accountId?: string): Promise<{ accountId: string; prefix: string } | undefined> {
    let q = this.#db
      .updateTable('api_keys')
      .set({ revoked_at: iso(this.#clock.now()) })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null);
    if (accountId !== undefined) q = q.where('account_id', '=', accountId);
    const r = await q.returning(['account_id', 'prefix']).executeTakeFirst();
    this.#keys.forgetKey(keyId);
    return r && { accountId: r.account_id, prefix: r.prefix };
  }

  /**
   * Notes that a key was just used, for the console's "last use": at most one write per key and
   * minute in this process, not awaited by the request (a failure is logged by `onError`).
   */
  noteKeyUse(keyId: string, onError: (err: unknown) => void): void {
    const now = this.#clock.now().getTime();
    if ((this.#lastNoted.get(keyId) ?? 0) > now - KEY_USE_RESOLUTION_MS) return;
    if (this.#lastNoted.size >= 10_000) this.#lastNoted.clear();
    this.#lastNoted.set(keyId, now);
    this.#db
      .updateTable('api_keys')
      .set({ last_used_at: iso(new Date(now)) })
      .where('id', '=', keyId)
      .execute()
      .catch(onError);
  }

  /**
   * The live key's account, or undefined for an unknown or revoked key. The account may be a few
   * seconds old (key-cache.ts): read `balance()` for a balance to show.
   */
  async findByKey(plaintext: string): Promise<KeyOwner | undefined> {
    return this.findByKeyNow(plaintext);
  }

  /**
   * The key's owner at once when this process remembers it (key-cache.ts), else the lookup's promise:
   * authentication answers most requests without a promise of its own.
   */
  findByKeyNow(plaintext: string, onRefreshError?: (err: unknown) => void): KeyOwner | Promise<KeyOwner | undefined> {
    const hash = hashKey(plaintext);
    const cached = this.#keys.get(hash);
    if (cached) {
      this.#refreshSoon(onRefreshError);
      return cached;
    }
    return this.#lookUp(hash);
  }

  async #lookUp(hash: string): Promise<KeyOwner | undefined> {
    const generation = this.#keys.generation();
    const row = (await this.#byHash(this.#db, { hash })).rows[0];
    return this.#remember(hash, row, generation);
  }

  #remember(hash: string, row: KeyRow | undefined, generation: number): KeyOwner | undefined {
    if (!row || row.revoked_at) {
      this.#keys.drop(hash, generation);
      return undefined;
    }
    const { key_id, revoked_at: _revoked, ...account } = row;
    return this.#keys.set(hash, { keyId: key_id, account }, generation);
  }

  /**
   * Reads again, together, the keys in use whose entries expire soon (key-cache.ts), at most once per
   * REFRESH_EVERY_MS and driven by the requests themselves (an idle process reads nothing). Not
   * awaited: a failure leaves the entries to expire, and their next requests look them up.
   */
  #refreshSoon(onError: ((err: unknown) => void) | undefined): void {
    const now = this.#keys.now();
    if (this.#refreshing || now - this.#lastRefresh < REFRESH_EVERY_MS) return;
    this.#lastRefresh = now;
    const due = this.#keys.dueForRefresh();
    if (due.length === 0) return;
    this.#refreshing = true;
    this.#refresh(due)
      .catch((err) => onError?.(err))
      .finally(() => {
        this.#refreshing = false;
      });
  }

  async #refresh(hashes: string[]): Promise<void> {
    // At most 256 per statement (preparedIn pads each to a power of two).
    for (const chunk of powerOfTwoChunks(hashes, 256)) {
      const generation = this.#keys.generation();
      const { rows } = await this.#byHashes(this.#db, chunk);
      const byHash = new Map(rows.map(({ hash, ...row }) => [hash, row]));
      for (const hash of chunk) this.#remember(hash, byHash.get(hash), generation);
    }
  }

  /** The balance as committed now, or undefined for no such account. */
  async balance(accountId: string): Promise<number | undefined> {
    const centavos = await this.#balances(accountId);
    if (centavos !== undefined) this.#keys.noteBalance(accountId, centavos);
    return centavos;
  }

  /** A balance this process saw committed (a debit's result): the next price checks start from it. */
  noteBalance(accountId: string, centavos: number): void {
    this.#keys.noteBalance(accountId, centavos);
  }
}
