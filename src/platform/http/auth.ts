/**
 * Authentication (spec §5): the key comes in `x-api-key` or `Authorization: Bearer`. 401 for a missing,
 * malformed, unknown or revoked key; 403 for an inactive account. Runs first, before rate limits
 * (platform/http/gate.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { AccountStore, KeyOwner } from '../accounts/store.ts';
import { looksLikeKey } from '../accounts/keys.ts';
import { ApiError } from '../errors.ts';
import type { AuthContext } from './route.ts';

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

function admit(owner: KeyOwner | undefined): AuthContext {
  if (!owner) throw new ApiError('INVALID_API_KEY');
  if (owner.account.status !== 'active') throw new ApiError('ACCOUNT_INACTIVE');
  return owner;
}

/**
 * Sets `req.auth`, or throws the refusal. Synchronous when this process remembers the key (most
 * requests), a promise only when the database must be read.
 */
export function authenticate(req: FastifyRequest, accounts: AccountStore): void | Promise<void> {
  const key = presentedKey(req);
  if (!key) throw new ApiError('MISSING_API_KEY');
  if (!looksLikeKey(key)) throw new ApiError('INVALID_API_KEY');
  const owner = accounts.findByKeyNow(key);
  if (!(owner instanceof Promise)) {
    req.auth = admit(owner);
    return;
  }
  return owner.then((o) => { req.auth = admit(o); });
}
