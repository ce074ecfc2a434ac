/**
 * `Idempotency-Key` on POST/PUT/PATCH/DELETE (beyond the spec; IETF draft semantics), per account,
 * kept TRAMITA_IDEMPOTENCY_TTL_HOURS:
 * - first use: claimed (INSERT … ON CONFLICT DO NOTHING), run, and its response stored;
 * - replay of a finished request: the stored response, byte for byte, never run or charged again;
 * - same key, different request (method, path, query or body): 422 IDEMPOTENCY_KEY_REUSED;
 * - same key while the first still runs: 409 IDEMPOTENCY_KEY_IN_USE.
 * A refusal before the operation ran (401, 403, 429) or a failure (5xx) is not stored: the key is
 * released, so the same request can be retried once the cause is gone (e.g. after a top-up).
 * Runs after auth and rate limits (preHandler), after validation: a 400 is never stored.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { addMs, iso, type Clock } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { fromColumns, sendStored, toColumns } from './stored-response.ts';

const METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers worth replaying; the rest (date, connection…) belong to the new response. */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after', 'preference-applied', 'content-disposition', 'x-credits-charged', 'x-credits-remaining', 'x-search-log-id'];

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

export interface IdempotencyOptions {
  ttlHours: number;
  /** A claim older than this is taken to be a crashed request's, and can be taken over. */
  staleAfterMs: number;
}

/** Whether a response is the operation's own answer, to be replayed (not a refusal or a failure). */
function kept(status: number): boolean {
  return status !== 401 && status !== 403 && status !== 429 && status < 500;
}

function fingerprint(req: FastifyRequest): string {
  return createHash('sha256').update(`${req.method} ${req.url}\n${JSON.stringify(req.body ?? null)}`).digest('hex');
}

function readKey(req: FastifyRequest): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw) || !KEY_PATTERN.test(raw)) throw new ApiError('INVALID_IDEMPOTENCY_KEY');
  return raw;
}

export function installIdempotency(app: FastifyInstance, db: Kysely<DB>, clock: Clock, opts: IdempotencyOptions): void {
  /** A fresh claim: running, no response yet, expiring after the TTL. */
  const claim = (fingerprint: string, now: Date) => ({
    fingerprint, status: 'running' as const, response_status: null, response_headers: null, response_body: null,
    response_encoding: null, created_at: iso(now), expires_at: iso(addMs(now, opts.ttlHours * 3_600_000)),
  });

  const preHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!METHODS.has(req.method) || !req.auth) return;
    const key = readKey(req);
    if (!key) return;
    const accountId = req.auth.account.id;
    const fp = fingerprint(req);
    const now = clock.now();
    const claimed = await db.insertInto('idempotency_keys').values({ account_id: accountId, key, ...claim(fp, now) })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing()).executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 1) {
      req.idempotencyKey = key;
      return;
    }
    const row = await db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
    if (!row) throw new ApiError('IDEMPOTENCY_KEY_IN_USE'); // released between our insert and select: retry
    const expired = row.expires_at <= iso(now);
    const stale = row.status === 'running' && row.created_at <= iso(addMs(now, -opts.staleAfterMs));
    if (expired || stale) {
      // Take the key over with a compare-and-set on the row we saw, so two takers cannot both win.
      const r = await db.updateTable('idempotency_keys')
        .set(claim(fp, now))
        .where('account_id', '=', accountId).where('key', '=', key).where('created_at', '=', row.created_at).executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw new ApiError('IDEMPOTENCY_KEY_IN_USE');
      req.idempotencyKey = key;
      return;
    }
    if (row.fingerprint !== fp) throw new ApiError('IDEMPOTENCY_KEY_REUSED', undefined, { key });
    if (row.status === 'running') throw new ApiError('IDEMPOTENCY_KEY_IN_USE', undefined, { key });
    reply.header('idempotent-replayed', 'true');
    return sendStored(reply, fromColumns(row));
  };

  const onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const key = req.idempotencyKey;
    if (!key || !req.auth) return payload;
    const accountId = req.auth.account.id;
    if (!kept(reply.statusCode) || !(typeof payload === 'string' || Buffer.isBuffer(payload))) {
      await db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).execute();
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const v = reply.getHeader(name);
      if (v !== undefined) headers[name] = String(v);
    }
    await db.updateTable('idempotency_keys').set({ status: 'done', ...toColumns({ status: reply.statusCode, headers, body: payload }) })
      .where('account_id', '=', accountId).where('key', '=', key).execute();
    return payload;
  };

  // Only on the routes whose methods take the header: a GET pays for no hook at all.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => METHODS.has(m))) return;
    route.preHandler = [...asArray(route.preHandler), preHandler];
    route.onSend = [...asArray(route.onSend), onSend];
  });
}

function asArray<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

export async function purgeExpiredIdempotencyKeys(db: Kysely<DB>, clock: Clock): Promise<number> {
  const r = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', iso(clock.now())).executeTakeFirst();
  return Number(r.numDeletedRows);
}
