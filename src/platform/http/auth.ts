/**
 * Authentication (spec §5): the key comes in `x-api-key` or `Authorization: Bearer`. 401 for a missing,
 * malformed, unknown or revoked key; 403 for an inactive account. Runs first, before rate limits.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountStore } from '../accounts/store.ts';
import { looksLikeKey } from '../accounts/keys.ts';
import { ApiError } from './errors.ts';

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

export function installAuth(app: FastifyInstance, accounts: AccountStore): void {
  app.addHook('onRequest', async (req) => {
    if (!req.routeOptions.config.tramita?.auth) return;
    const key = presentedKey(req);
    if (!key) throw new ApiError('MISSING_API_KEY');
    const owner = looksLikeKey(key) ? await accounts.findByKey(key) : undefined;
    if (!owner) throw new ApiError('INVALID_API_KEY');
    if (owner.account.status !== 'active') throw new ApiError('ACCOUNT_INACTIVE');
    req.auth = owner;
  });
}
