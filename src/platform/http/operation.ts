/**
 * Runs a route's handler the way the contract requires (spec §1.2, §3.2, §8):
 * - prices it from the plan (403 OPERATION_NOT_ALLOWED / INSUFFICIENT_CREDITS before any work);
 * - on success, atomically (Ledger.charge; on SQLite in a transaction shared with the other charges
 *   of the same tick, db/group-commit.ts): the search log (the result record), the conditional
 *   debit and its ledger row, and, for a pending operation, the final response its status URL will
 *   replay (Ledger.transact + chargeIn); the response leaves only after the COMMIT;
 * - errors, not-found and source failures are never charged;
 * - an async-eligible operation still running near the end of the window answers 202 and continues;
 *   the charge happens once, when it completes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config.ts';
import { addMs, iso, type Clock } from '../clock.ts';
import type { AccountStore } from '../accounts/store.ts';
import type { AsyncRequestStore } from '../async/store.ts';
import { chargeMeta, specOf, type ChargeReceipt, type Charged, type DebitLine, type Ledger } from '../billing/ledger.ts';
import { toBrl, type PriceTable } from '../billing/prices.ts';
import type { DB } from '../db/schema.ts';
import { ApiError, errorBody } from '../errors.ts';
import { toApiError } from './error-handler.ts';
import { parsePrefer, type Preferences } from './prefer.ts';
import type { OperationContext, Outcome, RouteMeta } from './route.ts';
import { envelopeJson, JSON_TYPE, jsonResponse, sendStored, type StoredResponse } from './stored-response.ts';

export interface OperationDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: Config;
  prices: PriceTable;
  ledger: Ledger;
  accounts: AccountStore;
  asyncRequests: AsyncRequestStore;
}

type RawHandler = (req: FastifyRequest, op: OperationContext) => Promise<Outcome>;

const WINDOW_ELAPSED = Symbol('window elapsed');

/** Operations that answered 202 and still run here; shutdown waits for them. */
export class BackgroundOperations {
  readonly #running = new Set<Promise<unknown>>();
  track(p: Promise<unknown>): void {
    this.#running.add(p);
    void p.finally(() => this.#running.delete(p));
  }
  /** Waits for running operations, at most `ms`; those still running are interrupted by their lease. */
  async drain(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.#running]), new Promise((r) => { timer = setTimeout(r, ms); })]);
    clearTimeout(timer);
  }
}

/** One execution of one operation: knows whether it went pending, and finishes it exactly once. */
class Run implements OperationContext {
  mode: 'sync' | 'finishing' | 'pending' = 'sync';
  /** Resolves to whether the pending row was written (never rejects). */
  opened: Promise<boolean> = Promise.resolve(false);
  readonly #req: FastifyRequest;
  readonly #meta: RouteMeta;
  readonly #price: number;
  readonly #deps: OperationDeps;
  /** Set when the handler charged inside its own transaction (chargeIn): the runner charges nothing more. */
  #charged: ChargeReceipt | undefined;

  constructor(req: FastifyRequest, meta: RouteMeta, price: number, deps: OperationDeps) {
    this.#req = req;
    this.#meta = meta;
    this.#price = price;
    this.#deps = deps;
  }

  get priceCentavos(): number {
    return this.#price;
  }

  async chargeIn(trx: Transaction<DB>, opts: { debits?: readonly DebitLine[]; status?: number } = {}): Promise<void> {
    const req = this.#req;
    if (!this.#meta.charge || !req.auth) throw new Error(`${req.method} ${req.routeOptions.url} is not a charged route`);
    if (this.#charged) throw new Error('an operation is charged once');
    this.#charged = await this.#deps.ledger.chargeIn(trx, {
      accountId: req.auth.account.id, queryType: this.#meta.charge,
      origin: { requestId: req.id, method: req.method, path: req.url.split('?')[0], statusCode: opts.status ?? 200 },
      debits: opts.debits ?? [{ operationId: req.id, centavos: this.#price }],
    });
  }

  /** Never rejects: every failure becomes the stored error response. */
  async execute(handler: RawHandler): Promise<StoredResponse> {
    try {
      return await this.#succeed(await handler(this.#req, this));
    } catch (err) {
      return this.#fail(err);
    }
  }

  async #succeed(outcome: Outcome): Promise<StoredResponse> {
    if (this.mode === 'sync') this.mode = 'finishing';
    const pending = await this.opened;
    const { ledger, accounts } = this.#deps;
    const status = 'response' in outcome ? outcome.response.status : (outcome.status ?? 200);
    if (this.#charged) {
      // Charged by the handler, in the transaction of what it created: committed by now.
      accounts.noteBalance(this.#req.auth!.account.id, this.#charged.remaining);
      const response = render(outcome, { requestId: this.#req.id, ...chargeMeta(this.#charged) });
      if (pending) await this.#deps.asyncRequests.complete(this.#req.id, response);
      return response;
    }
    const paid = this.#meta.charge !== undefined && this.#req.auth !== undefined && !('free' in outcome && outcome.free);
    if (!paid) {
      const auth = this.#req.auth;
      // A priced route whose outcome was free still tells the caller so, with the balance as committed now.
      const priced = this.#meta.charge !== undefined && auth !== undefined;
      const meta = priced ? { requestId: this.#req.id, creditsCharged: 0, creditsRemaining: toBrl((await accounts.balance(auth.account.id)) ?? 0) } : { requestId: this.#req.id };
      const response = render(outcome, meta);
      if (pending) await this.#deps.asyncRequests.complete(this.#req.id, response);
      return response;
    }
    const auth = this.#req.auth!;
    const charge = {
      accountId: auth.account.id, centavos: this.#price, operationId: this.#req.id, queryType: this.#meta.charge!,
      requestId: this.#req.id, method: this.#req.method, path: this.#req.url.split('?')[0], statusCode: status,
    };
    const answer = (c: Charged) => render(outcome, { requestId: this.#req.id, ...chargeMeta({ ...c, centavos: this.#price }) });
    // A pending operation's final response, which its status URL replays, commits with the charge.
    const { charged, response } = pending
      ? await ledger.transact(async (trx) => {
        const c = await ledger.chargeIn(trx, specOf(charge));
        const r = answer(c);
        await this.#deps.asyncRequests.complete(this.#req.id, r, trx);
        return { charged: c, response: r };
      })
      : await ledger.charge(charge).then((c) => ({ charged: c, response: answer(c) }));
    // Committed: the next price checks of this account start from it.
    accounts.noteBalance(auth.account.id, charged.remaining);
    return response;
  }

  async #fail(err: unknown): Promise<StoredResponse> {
    const error = toApiError(err);
    if (error.code === 'INTERNAL_ERROR') this.#req.log.error({ err }, 'operation failed');
    const response = jsonResponse(error.status, errorBody(error, this.#req.id), error.headers);
    if (await this.opened) {
      await this.#deps.asyncRequests.complete(this.#req.id, response).catch((e) => this.#req.log.error({ err: e }, 'could not store the final response'));
    }
    return response;
  }
}

/** The envelope (spec §2.1): `{data, meta}`; a file carries its charge in headers instead. */
function render(outcome: Outcome, meta: Record<string, unknown>): StoredResponse {
  if ('response' in outcome) return outcome.response;
  const status = outcome.status ?? 200;
  if ('file' in outcome) {
    const headers: Record<string, string> = { 'content-type': outcome.file.contentType, 'x-request-id': String(meta.requestId) };
    if (outcome.file.filename) headers['content-disposition'] = `attachment; filename="${outcome.file.filename.replace(/[^\w.-]/g, '_')}"`;
    if (meta.searchLogId) headers['x-search-log-id'] = String(meta.searchLogId);
    if (meta.creditsCharged !== undefined) headers['x-credits-charged'] = String(meta.creditsCharged);
    if (meta.creditsRemaining !== undefined) headers['x-credits-remaining'] = String(meta.creditsRemaining);
    return { status, headers, body: outcome.file.body };
  }
  return { status, headers: { 'content-type': JSON_TYPE, ...outcome.headers }, body: envelopeJson(outcome.data, { ...meta, ...outcome.meta }) };
}

/** An absolute URL on this server (TRAMITA_PUBLIC_URL, or the request's own host). */
export function absoluteUrl(req: FastifyRequest, config: Config, path: string): string {
  return `${config.publicUrl ?? `${req.protocol}://${req.host}`}${path}`;
}

export function statusUrl(req: FastifyRequest, config: Config, requestId: string): string {
  return absoluteUrl(req, config, `/v1/requests/${requestId}`);
}

/** The 202 of a pending operation (spec §2.2), with fresh poll hints. */
export function pendingResponse(req: FastifyRequest, deps: Pick<OperationDeps, 'clock' | 'config'>, requestId: string, submittedAt: string, extraHeaders: Record<string, string> = {}): StoredResponse {
  const pollAfterMs = deps.config.pollAfterMs;
  const url = statusUrl(req, deps.config, requestId);
  const hints = {
    pollAfterSeconds: Math.ceil(pollAfterMs / 1000),
    pollAfterMs,
    nextPollAt: iso(addMs(deps.clock.now(), pollAfterMs)),
  };
  return jsonResponse(202, {
    data: { requestId, status: 'PROCESSANDO', statusUrl: url, submittedAt, ...hints },
    ...hints,
    meta: { requestId },
  }, { location: url, 'retry-after': String(hints.pollAfterSeconds), ...extraHeaders });
}

function estimate(req: FastifyRequest, meta: RouteMeta, price: number, balance: number): StoredResponse {
  return jsonResponse(200, {
    data: {
      queryType: meta.charge ?? null, plan: req.auth?.account.plan ?? null, currency: 'BRL',
      price: toBrl(price), priceCentavos: price, balance: toBrl(balance), balanceCentavos: balance,
      sufficient: balance >= price, chargedOn: 'success',
    },
    meta: { requestId: req.id, creditsCharged: 0, estimate: true },
  }, { 'preference-applied': 'return=estimate' });
}

function windowMs(config: Config, prefs: Preferences): number {
  const window = Math.min(config.syncWindowMs, prefs.waitMs ?? Infinity);
  return Math.max(0, window - config.syncWindowMarginMs);
}

export function wrapOperation(meta: RouteMeta, handler: RawHandler, deps: OperationDeps, background: BackgroundOperations) {
  return async function operation(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const price = meta.charge && req.auth ? deps.prices.priceFor(req.auth.account.plan, meta.charge) : 0;
    const prefs = parsePrefer(req);
    if (prefs.estimate && req.auth) return sendStored(reply, estimate(req, meta, price, (await deps.accounts.balance(req.auth.account.id)) ?? 0));
    // The balance auth saw may be seconds old (accounts/key-cache.ts): it may let a request through,
    // where the conditional debit is the real check, but it never refuses one without a fresh read.
    if (price > 0 && req.auth!.account.balance_centavos < price) {
      const balance = (await deps.accounts.balance(req.auth!.account.id)) ?? 0;
      if (balance < price) throw new ApiError('INSUFFICIENT_CREDITS', undefined, { price: toBrl(price), balance: toBrl(balance) });
    }
    const run = new Run(req, meta, price, deps);
    if (!meta.async || !req.auth) return sendStored(reply, await run.execute(handler));

    const account = req.auth.account.id;
    // Formatted only if the operation goes pending: most finish within the window.
    const submitted = deps.clock.now();
    const goPending = () => {
      run.mode = 'pending';
      run.opened = deps.asyncRequests.open({ id: req.id, accountId: account, method: req.method, path: req.url.split('?')[0] })
        .then(() => true, (err) => { req.log.error({ err }, 'could not record the pending operation'); return false; });
    };
    // Asked for a 202: pending before the work starts, even if the work turns out to be instant.
    if (prefs.respondAsync) goPending();
    const work = run.execute(handler);
    if (!prefs.respondAsync) {
      let timer: NodeJS.Timeout | undefined;
      const first = await Promise.race([work, new Promise<typeof WINDOW_ELAPSED>((r) => { timer = setTimeout(r, windowMs(deps.config, prefs), WINDOW_ELAPSED); })]);
      clearTimeout(timer);
      // Already writing its result: the answer is moments away, so it stays synchronous.
      if (first !== WINDOW_ELAPSED || run.mode === 'finishing') return sendStored(reply, first === WINDOW_ELAPSED ? await work : first);
      goPending();
    }
    // Without its row the status URL could not answer: wait for the result instead of a 202 that leads nowhere.
    if (!(await run.opened)) return sendStored(reply, await work);
    const renewal = setInterval(() => void deps.asyncRequests.renew(req.id).catch(() => {}), Math.max(250, deps.asyncRequests.leaseMs / 3));
    renewal.unref();
    background.track(work.finally(() => clearInterval(renewal)));
    return sendStored(reply, pendingResponse(req, deps, req.id, iso(submitted), prefs.respondAsync ? { 'preference-applied': 'respond-async' } : {}));
  };
}
