/** Accounts and their API keys: what the CLI manages and what authentication reads. */
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import { iso } from '../clock.ts';
import type { AccountsTable, DB } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { prepared, type Prepared } from '../db/prepared.ts';
import { generateKey, hashKey } from './keys.ts';

export type Account = AccountsTable;

export interface KeyOwner {
  keyId: string;
  account: Account;
}

export interface IssuedKey {
  id: string;
  prefix: string;
  key: string;
}

type KeyRow = Account & { key_id: string; revoked_at: string | null };

export class AccountStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  /** Runs on every authenticated request: compiled once. */
  readonly #byHash: Prepared<'hash', KeyRow>;
  constructor(db: Kysely<DB>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
    this.#byHash = prepared(['hash'], (p) => db.selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select(['api_keys.id as key_id', 'api_keys.revoked_at'])
      .select(['accounts.id', 'accounts.name', 'accounts.plan', 'accounts.status', 'accounts.balance_centavos', 'accounts.sandbox', 'accounts.created_at', 'accounts.updated_at'])
      .where('api_keys.hash', '=', p.hash));
  }

  async create(input: { name: string; plan: string; sandbox?: boolean }): Promise<Account> {
    const now = iso(this.#clock.now());
    const account: Account = {
      id: newId('acc'), name: input.name, plan: input.plan, status: 'active', balance_centavos: 0,
      sandbox: input.sandbox ? 1 : 0, created_at: now, updated_at: now,
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
    const row = await this.#db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Returns false when no such account exists. */
  async setStatus(id: string, status: Account['status']): Promise<boolean> {
    const r = await this.#db.updateTable('accounts').set({ status, updated_at: iso(this.#clock.now()) }).where('id', '=', id).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async issueKey(accountId: string): Promise<IssuedKey> {
    const k = generateKey();
    await this.#db.insertInto('api_keys')
      .values({ id: k.id, account_id: accountId, prefix: k.prefix, hash: k.hash, created_at: iso(this.#clock.now()), revoked_at: null })
      .execute();
    return { id: k.id, prefix: k.prefix, key: k.plaintext };
  }

  async listKeys(accountId: string) {
    return this.#db.selectFrom('api_keys').select(['id', 'prefix', 'created_at', 'revoked_at'])
      .where('account_id', '=', accountId).orderBy('created_at').execute();
  }

  /** Returns false when the key does not exist or was already revoked. */
  async revokeKey(keyId: string): Promise<boolean> {
    const r = await this.#db.updateTable('api_keys').set({ revoked_at: iso(this.#clock.now()) })
      .where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** The live key's account, or undefined for an unknown or revoked key. */
  async findByKey(plaintext: string): Promise<KeyOwner | undefined> {
    const row = (await this.#byHash(this.#db, { hash: hashKey(plaintext) })).rows[0];
    if (!row || row.revoked_at) return undefined;
    const { key_id, revoked_at: _revoked, ...account } = row;
    return { keyId: key_id, account };
  }
}
