/**
 * Which account an API key belongs to, remembered for a few seconds so that authentication does not
 * read the database on every request. Keyed by the key's SHA-256 (the plaintext is never kept), least
 * recently used dropped first, only live keys of existing accounts (an unknown key is always looked up).
 *
 * Staleness is bounded, and money never depends on it:
 * - revoking a key or changing an account's status through this process's AccountStore drops the
 *   entries at once; done from another process (the CLI, another server), the old answer lasts at
 *   most KEY_CACHE_TTL_MS on this one;
 * - the balance in a cached account is a hint for the price check only: a refusal re-reads it, what a
 *   response shows is read fresh, and the debit itself is a conditional UPDATE that cannot overspend.
 *
 * A key in use is read again shortly before its entry expires (`dueForRefresh`, accounts/store.ts):
 * all such keys in one query, at most once per REFRESH_EVERY_MS, instead of one lookup per key that a
 * request waits for. Over 1,000 keys on PostgreSQL the expiries had cost a round trip in almost every
 * turn of the event loop (docs/benchmarks.md). The bound above does not change: a refreshed entry is
 * as fresh as its read.
 */
import type { Account, KeyOwner } from './types.ts';
import { LruMap } from '../lru-map.ts';

/** How long a revoked key, or a deactivated account, may keep working on a process that did not make the change. */
export const KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;
/** Keys used since the last refresh and expiring within this are read again together. */
export const REFRESH_AHEAD_MS = 2_500;
/** At most one refresh this often. */
export const REFRESH_EVERY_MS = 1_000;

interface Entry {
  owner: KeyOwner;
  expiresAt: number;
  /** Asked for since it was last read: worth reading again before it expires. */
  used: boolean;
}

export class KeyCache {
  readonly #entries = new LruMap<string, Entry>(MAX_ENTRIES);
  /** One snapshot per account, shared by the entries of all its keys, so a balance is noted in one place. */
  readonly #accounts = new Map<string, Account>();
  readonly #ttlMs: number;
  /** Milliseconds on a monotonic clock (performance.now() unless a test gives its own). */
  readonly now: () => number;
  /** Bumped by every forget: a lookup that started before one must not put back what it removed. */
  #generation = 0;

  constructor(opts: { ttlMs?: number; now?: () => number } = {}) {
    this.#ttlMs = opts.ttlMs ?? KEY_CACHE_TTL_MS;
    this.now = opts.now ?? (() => performance.now());
  }

  get(hash: string): KeyOwner | undefined {
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.#entries.delete(hash);
      return undefined;
    }
    entry.used = true;
    return entry.owner;
  }

  /** The keys used since they were last read whose entries expire within REFRESH_AHEAD_MS. */
  dueForRefresh(): string[] {
    const soon = this.now() + REFRESH_AHEAD_MS;
    const due: string[] = [];
    for (const [hash, e] of this.#entries) if (e.used && e.expiresAt <= soon) due.push(hash);
    return due;
  }

  /** A key read since `generation` that is no longer live (revoked, or gone): dropped. */
  drop(hash: string, generation: number): void {
    if (generation === this.#generation) this.#entries.delete(hash);
  }

  /** Pass to `set`: taken before the database read whose result will be remembered. */
  generation(): number {
    return this.#generation;
  }

  /** Remembers a lookup read since `generation`; returns the owner to use (its account is the shared snapshot). */
  set(hash: string, fresh: KeyOwner, generation: number): KeyOwner {
    if (generation !== this.#generation) return fresh;
    let account = this.#accounts.get(fresh.account.id);
    if (account) Object.assign(account, fresh.account);
    else {
      account = { ...fresh.account };
      if (this.#accounts.size >= MAX_ENTRIES) this.#accounts.delete(this.#accounts.keys().next().value!);
      this.#accounts.set(account.id, account);
    }
    const owner = { keyId: fresh.keyId, account };
    this.#entries.set(hash, { owner, expiresAt: this.now() + this.#ttlMs, used: false });
    return owner;
  }

  forgetKey(keyId: string): void {
    this.#generation++;
    for (const [hash, e] of this.#entries) if (e.owner.keyId === keyId) this.#entries.delete(hash);
  }

  forgetAccount(accountId: string): void {
    this.#generation++;
    this.#accounts.delete(accountId);
    for (const [hash, e] of this.#entries) if (e.owner.account.id === accountId) this.#entries.delete(hash);
  }

  /** A balance this process just saw committed (a debit's RETURNING, a fresh read): keeps the price check's hint close. */
  noteBalance(accountId: string, centavos: number): void {
    const account = this.#accounts.get(accountId);
    if (account) account.balance_centavos = centavos;
  }
}
