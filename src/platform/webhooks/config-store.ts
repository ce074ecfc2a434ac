/**
 * The account webhook configuration of spec §2.4: URL, bearer token, HMAC secret, payload format,
 * active flag, enabled event kinds, and whether legacy names are sent too. One row per account,
 * created on first use with a generated secret, so per-monitor `webhook_url` deliveries are signed
 * even before the account configured anything. The secret and token are sealed at rest; only the
 * sender unseals them, and only the secret's prefix is ever shown again.
 */
import type { Kysely } from 'kysely';
import { iso, type Clock } from '../clock.ts';
import type { DB, PayloadFormat, WebhookConfigsTable } from '../db/schema.ts';
import { newWebhookSecret } from './sign.ts';

export interface Sealer {
  seal(plain: string): string;
  unseal(sealed: string): string;
}

export interface WebhookConfigPatch {
  url?: string | null;
  token?: string | null;
  formato?: PayloadFormat;
  ativo?: boolean;
  eventos?: string[] | null;
  nomesLegados?: boolean;
}

/** How many characters of the secret are shown back (enough to tell two secrets apart). */
const SECRET_PREFIX_LENGTH = 12;
const UNSEALED_CACHE_SIZE = 1024;

export class WebhookConfigStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  readonly #sealer: Sealer;
  readonly #unsealed = new Map<string, { secret: string; token: string | null }>();

  constructor(db: Kysely<DB>, clock: Clock, sealer: Sealer) {
    this.#db = db;
    this.#clock = clock;
    this.#sealer = sealer;
  }

  async get(accountId: string): Promise<WebhookConfigsTable | undefined> {
    return this.#db.selectFrom('webhook_configs').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  }

  /** The account's configuration, created with defaults and a new secret when it has none; `secret` only when created now. */
  async ensure(accountId: string): Promise<{ config: WebhookConfigsTable; secret?: string }> {
    const existing = await this.get(accountId);
    if (existing) return { config: existing };
    const secret = newWebhookSecret();
    const now = iso(this.#clock.now());
    await this.#db
      .insertInto('webhook_configs')
      .values({
        account_id: accountId,
        url: null,
        token_sealed: null,
        secret_sealed: this.#sealer.seal(secret),
        secret_prefix: secret.slice(0, SECRET_PREFIX_LENGTH),
        formato: 'NORMALIZED',
        ativo: 1,
        eventos: null,
        nomes_legados: 0,
        feed_cursor: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .execute();
    const config = (await this.get(accountId))!;
    // Another request may have created it between our read and insert: then its secret stands.
    return config.secret_prefix === secret.slice(0, SECRET_PREFIX_LENGTH) ? { config, secret } : { config };
  }

  async update(accountId: string, patch: WebhookConfigPatch): Promise<{ config: WebhookConfigsTable; secret?: string }> {
    const { secret } = await this.ensure(accountId);
    const set: Partial<WebhookConfigsTable> = { updated_at: iso(this.#clock.now()) };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.token !== undefined) set.token_sealed = patch.token === null ? null : this.#sealer.seal(patch.token);
    if (patch.formato !== undefined) set.formato = patch.formato;
    if (patch.ativo !== undefined) set.ativo = patch.ativo ? 1 : 0;
    if (patch.eventos !== undefined) set.eventos = patch.eventos === null ? null : JSON.stringify(patch.eventos);
    if (patch.nomesLegados !== undefined) set.nomes_legados = patch.nomesLegados ? 1 : 0;
    await this.#db.updateTable('webhook_configs').set(set).where('account_id', '=', accountId).execute();
    return { config: (await this.get(accountId))!, ...(secret ? { secret } : {}) };
  }

  /** A new secret, returned once; the old one stops signing at once. */
  async regenerateSecret(accountId: string): Promise<{ config: WebhookConfigsTable; secret: string }> {
    await this.ensure(accountId);
    const secret = newWebhookSecret();
    await this.#db
      .updateTable('webhook_configs')
      .set({ secret_sealed: this.#sealer.seal(secret), secret_prefix: secret.slice(0, SECRET_PREFIX_LENGTH), updated_at: iso(this.#clock.now()) })
      .where('account_id', '=', accountId)
      .execute();
    return { config: (await this.get(accountId))!, secret };
  }

  async setFeedCursor(accountId: string, cursor: string): Promise<void> {
    await this.ensure(accountId);
    await this.#db
      .updateTable('webhook_configs')
      .set({ feed_cursor: cursor, updated_at: iso(this.#clock.now()) })
      .where('account_id', '=', accountId)
      .execute();
  }

  /**
   * What the sender needs in clear. Unsealed once per version of the row (the sealed values are part
   * of the key, so a new secret or token is never served from the cache), bounded in size.
   */
  credentials(config: WebhookConfigsTable): { secret: string; token: string | null } {
    const key = `${config.secret_sealed}|${config.token_sealed ?? ''}`;
    let found = this.#unsealed.get(key);
    if (!found) {
      found = { secret: this.#sealer.unseal(config.secret_sealed), token: config.token_sealed ? this.#sealer.unseal(config.token_sealed) : null };
      if (this.#unsealed.size >= UNSEALED_CACHE_SIZE) this.#unsealed.delete(this.#unsealed.keys().next().value!);
      this.#unsealed.set(key, found);
    }
    return found;
  }
}
