/**
 * `Idempotency-Key` on POST/PUT/PATCH/DELETE and on charged GETs (beyond the spec; IETF draft
 * semantics), per account, kept TRAMITA_IDEMPOTENCY_TTL_HOURS: a client that lost a lookup's answer
 * sends it again with the same key and gets that answer, not a second charge.
 * - first use: claimed (INSERT … ON CONFLICT DO NOTHING), run, and its response stored;
 * - replay of a finished request: the stored response, byte for byte, never run or charged again;
 * - same key, different request (method, path, query or body): 422 IDEMPOTENCY_KEY_REUSED;
 * - same key while the first still runs: 409 IDEMPOTENCY_KEY_IN_USE.
 * A refusal before the operation ran (401, 403, 429) or a failure (5xx) is not stored: the key is
 * released, so the same request can be retried once the cause is gone (e.g. after a top-up).
 * An estimate (`Prefer: return=estimate`, operation.ts) neither claims the key nor replays it: it
 * runs nothing, so the same request without the preference still runs, and is charged, under the key.
 * Runs after auth and rate limits (preHandler), after validation: a 400 is never stored.
 *
 * A charge is never followed by a second run, even across a crash between its COMMIT and the
 * response (issue 14): the transaction that charges also writes what a replay answers
 * (keepIdempotentAnswer). The runner writes the final answer itself; a handler that charges inside
 * its own transaction (monitor and radar creation) writes 'charged' with an answer saying the request
 * was charged, which the real answer replaces once it is sent. A 'charged' key whose answer never
 * came (the process died) replays 409 IDEMPOTENCY_ANSWER_LOST, with the search log of the charge.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { addMs, iso, type Clock } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { ApiError, errorBody, languageOf } from '../errors.ts';
import { appendRouteHook } from './hooks.ts';
import { parsePrefer } from './prefer.ts';
import { fromColumns, jsonResponse, sendStored, toColumns, type StoredResponse } from './stored-response.ts';

const METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers worth replaying; the rest (date, connection…) belong to the new response. */
const REPLAYED_HEADERS = [
  'content-type',
  'location',
  'retry-after',
  'preference-applied',
  'content-disposition',
  'x-credits-charged',
  'x-credits-remaining',
  'x-search-log-id',
];

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
    /** Set once this request's answer is in its idempotency row as 'done': onSend has nothing to write. */
    idempotentAnswerKept?: boolean;
    /** Set once this request charged inside a handler's transaction: its key is never released. */
    idempotentCharged?: boolean;
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
  return createHash('sha256')
    .update(`${req.method} ${req.url}\n${JSON.stringify(req.body ?? null)}`)
    .digest('hex');
}

/** The headers of a response worth replaying, read from the reply or from a stored response. */
function replayedHeaders(get: (name: string) => unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const v = get(name);
    if (v !== undefined) headers[name] = String(v);
  }
  return headers;
}

/** The row of this request's key, while no answer is stored in it yet (a 202's may already be). */
function unanswered(db: Kysely<DB>, req: FastifyRequest) {
  return db.updateTable('idempotency_keys').where('account_id', '=', req.auth!.account.id).where('key', '=', req.idempotencyKey!).where('status', '!=', 'done');
}

/**
 * Writes, in the transaction that charges (`trx`), what a replay of this request answers: `answer` as
 * 'done', or, for a handler's charge whose answer is not rendered yet, the lost-answer refusal as
 * 'charged'. Nothing when the request carries no Idempotency-Key.
 */
export async function keepIdempotentAnswer(trx: Kysely<DB>, req: FastifyRequest, answer: StoredResponse | { chargedBy: string }): Promise<void> {
  if (!req.idempotencyKey || !req.auth) return;
  if ('chargedBy' in answer) {
    const error = new ApiError('IDEMPOTENCY_ANSWER_LOST', undefined, { requestId: req.id, searchLogId: answer.chargedBy });
    const lost = jsonResponse(error.status, errorBody(error, req.id, languageOf(req.headers['accept-language'])));
    await unanswered(trx, req)
      .set({ status: 'charged', ...toColumns(lost) })
      .execute();
    req.idempotentCharged = true;
    return;
  }
  const headers = replayedHeaders((name) => answer.headers[name]);
  await unanswered(trx, req)
    .set({ status: 'done', ...toColumns({ ...answer, headers }) })
    .execute();
  req.idempotentAnswerKept = true;
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
    fingerprint,
    status: 'running' as const,
    response_status: null,
    response_headers: null,
    response_body: null,
    response_encoding: null,
    created_at: iso(now),
    expires_at: iso(addMs(now, opts.ttlHours * 3_600_000)),
  });

  const preHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method === 'HEAD' || !req.auth) return;
    // An operation's estimate (operation.ts) is answered without running: it must not take the key.
    if (req.routeOptions.config.tramita && parsePrefer(req).estimate) return;
    const key = readKey(req);
    if (!key) return;
    const accountId = req.auth.account.id;
    const fp = fingerprint(req);
    const now = clock.now();
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ account_id: accountId, key, ...claim(fp, now) })
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 1) {
      req.idempotencyKey = key;
      return;
    }
    const row = await db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
    if (!row) throw new ApiError('IDEMPOTENCY_KEY_IN_USE'); // released between our insert and select: retry
    const expired = row.expires_at <= iso(now);
    const stale = row.status !== 'done' && row.created_at <= iso(addMs(now, -opts.staleAfterMs));
    if (expired || (stale && row.status === 'running')) {
      // Take the key over with a compare-and-set on the row we saw, so two takers cannot both win.
      const r = await db
        .updateTable('idempotency_keys')
        .set(claim(fp, now))
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .where('created_at', '=', row.created_at)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw new ApiError('IDEMPOTENCY_KEY_IN_USE');
      req.idempotencyKey = key;
      return;
    }
    if (row.fingerprint !== fp) throw new ApiError('IDEMPOTENCY_KEY_REUSED', undefined, { key });
    // Charged, and its answer still not stored long after: the process died before sending it.
    if (row.status === 'charged' && !stale) throw new ApiError('IDEMPOTENCY_KEY_IN_USE', undefined, { key });
    if (row.status === 'running') throw new ApiError('IDEMPOTENCY_KEY_IN_USE', undefined, { key });
    reply.header('idempotent-replayed', 'true');
    return sendStored(reply, fromColumns(row));
  };

  const onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const key = req.idempotencyKey;
    if (!key || !req.auth || req.idempotentAnswerKept) return payload;
    const storable = typeof payload === 'string' || Buffer.isBuffer(payload);
    // A charged request keeps its key whatever it answered: it must never run again.
    if (!storable || (!kept(reply.statusCode) && !req.idempotentCharged)) {
      await db.deleteFrom('idempotency_keys').where('account_id', '=', req.auth.account.id).where('key', '=', key).where('status', '=', 'running').execute();
      return payload;
    }
    const headers = replayedHeaders((name) => reply.getHeader(name));
    await unanswered(db, req)
      .set({ status: 'done', ...toColumns({ status: reply.statusCode, headers, body: payload }) })
      .execute();
    return payload;
  };

  // Only on the routes that take the header: writes, and GETs that charge. A free GET pays for no hook at all.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const chargedGet = methods.includes('GET') && Boolean((route.config as { tramita?: { charge?: string } } | undefined)?.tramita?.charge);
    if (!methods.some((m) => METHODS.has(m)) && !chargedGet) return;
    appendRouteHook(route, 'preHandler', preHandler);
    appendRouteHook(route, 'onSend', onSend);
  });
}

export async function purgeExpiredIdempotencyKeys(db: Kysely<DB>, clock: Clock): Promise<number> {
  const r = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', iso(clock.now())).executeTakeFirst();
  return Number(r.numDeletedRows);
}
