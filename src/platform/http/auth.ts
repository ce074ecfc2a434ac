/**
 * Authentication (spec §5): the key comes in `x-api-key` or `Authorization: Bearer`. 401 for a missing,
 * malformed, unknown or revoked key; 403 for an inactive account. Runs first, before rate limits
 * (platform/http/gate.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { AccountStore, KeyOwner } from '../accounts/store.ts';
import { looksLikeKey } from '../accounts/keys.ts';
import { ApiError } from '../errors.ts';
import { telemetry } from '../observability/telemetry.ts';

export function presentedKey(req: FastifyRequest): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const authz = req.headers.authorization;
  if (typeof authz === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authz);
    if (m) return m[1];
  }
  return undefined;
}

function admit(req: FastifyRequest, accounts: AccountStore, owner: KeyOwner | undefined, then: (err?: Error) => void): void {
  if (!owner) {
    then(new ApiError('INVALID_API_KEY'));
    return;
  }
  if (owner.account.status !== 'active') {
    then(new ApiError('ACCOUNT_INACTIVE'));
    return;
  }
  req.auth = owner;
  accounts.noteKeyUse(owner.keyId, (err) => {
    telemetry.backgroundFailures.labels('key_last_use').inc();
    req.log.warn({ err, keyId: owner.keyId }, 'noting the last use of an API key failed');
  });
  then();
}

/**
 * Sets `req.auth` and calls `then()`, or calls `then(refusal)`. Callback-style, like the gate's hook:
 * `then` runs at once when this process remembers the key (most requests: no promise at all on the
 * hot path), after the database read otherwise.
 */
export function authenticate(req: FastifyRequest, accounts: AccountStore, then: (err?: Error) => void): void {
  const key = presentedKey(req);
  if (!key) {
    then(new ApiError('MISSING_API_KEY'));
    return;
  }
  if (!looksLikeKey(key)) {
    then(new ApiError('INVALID_API_KEY'));
    return;
  }
  const owner = accounts.findByKeyNow(key, (err) => {
    telemetry.backgroundFailures.labels('key_refresh').inc();
    req.log.warn({ err }, 'reading the cached API keys in use again failed; they are looked up one by one when they expire');
  });
  if (owner instanceof Promise) owner.then((o) => admit(req, accounts, o, then), then);
  else admit(req, accounts, owner, then);
}
