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
 * Sets `req.auth` and calls `then()`, or calls `then(refusal)`. Callback-style, like the gate's hook:
 * `then` runs at once when this process remembers the key (most requests: no promise at all on the
 * hot path), after the database read otherwise.
 */
export function authenticate(req: FastifyRequest, accounts: AccountStore, then: (err?: Error) => void): void {
  let owner: ReturnType<AccountStore['findByKeyNow']>;
  try {
    const key = presentedKey(req);
    if (!key) throw new ApiError('MISSING_API_KEY');
    if (!looksLikeKey(key)) throw new ApiError('INVALID_API_KEY');
    owner = accounts.findByKeyNow(key);
  } catch (err) {
    return then(err as Error);
  }
  const admitted = (o: KeyOwner | undefined) => {
    try {
      req.auth = admit(o);
    } catch (err) {
      return then(err as Error);
    }
    then();
  };
  if (owner instanceof Promise) owner.then(admitted, then);
  else admitted(owner);
}
