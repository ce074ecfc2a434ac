/**
 * Runs a route's handler the way the contract requires (spec §1.2, §3.2, §8):
 * - prices it from the plan, once (403 OPERATION_NOT_ALLOWED / INSUFFICIENT_CREDITS before any work),
 *   and hands the price to the handler (OperationContext);
 * - charges it the way the route declares (route.ts ChargeWay). `on-success`: after the handler,
 *   atomically, through the one charge recipe (billing/ledger.ts): the search log, the conditional
 *   debit and its ledger row, and, for a pending operation, the final response its status URL will
 *   replay, and, for a request with an Idempotency-Key, the answer its replays send (so a crash after
 *   the COMMIT never lets it run again); the response leaves only after the COMMIT. `in-handler`: the
 *   handler charges in its own transaction (OperationContext.chargeIn) and the runner reports it.
 *   `deferred`: the job charges; the answer says it charged nothing;
 * - errors, not-found and source failures are never charged;
 * - an async-eligible operation still running near the end of the window answers 202 and continues
 *   (platform/async/window.ts); the charge happens once, when it completes.
 */
import { backgroundFailureLevel } from '../db/outage.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from '../../config.ts';
import type { Clock } from '../clock.ts';
import type { AccountStore } from '../accounts/store.ts';
import { PendingOperation } from '../async/pending.ts';
import type { AsyncRequestStore } from '../async/store.ts';
import { answerWithinWindow, type BackgroundOperations } from '../async/window.ts';
import type { Charge, ChargeReceipt, DebitLine } from '../billing/charge.ts';
import type { Ledger } from '../billing/ledger.ts';
import { toBrl, type PriceTable } from '../billing/prices.ts';
import type { DB } from '../db/schema.ts';
import { ApiError, errorBody, languageOf } from '../errors.ts';
import { toApiError } from './error-handler.ts';
import { whileCallerWaits } from '../request-path.ts';
import { keepIdempotentAnswer } from './idempotency.ts';
import { parsePrefer } from './prefer.ts';
import type { ChargeWay, OperationContext, Outcome, RouteMeta } from './route.ts';
import { envelopeJson, JSON_TYPE, jsonResponse, sendStored, type StoredResponse } from './stored-response.ts';

export interface OperationDeps {
  clock: Clock;
  config: Config;
  prices: PriceTable;
  ledger: Ledger;
  accounts: AccountStore;
  asyncRequests: AsyncRequestStore;
  background: BackgroundOperations;
}

type RawHandler = (req: FastifyRequest, op: OperationContext) => Promise<Outcome>;

/** One execution of one operation: charges it at most once, and finishes it exactly once. */
class Run implements OperationContext {
  /** Only for an async-eligible operation of an account: it may answer 202 (platform/async/). */
  readonly pending: PendingOperation | null;
  readonly #req: FastifyRequest;
  readonly #meta: RouteMeta;
  /** How this operation is charged, when it is (a charged route, an account's request). */
  readonly #way: ChargeWay | null;
  readonly #price: number;
  readonly #deps: OperationDeps;
  /** Set when an `in-handler` route's handler charged (chargeIn). */
  #charged: ChargeReceipt | undefined;

  constructor(req: FastifyRequest, meta: RouteMeta, way: ChargeWay | null, price: number, deps: OperationDeps) {
    this.#req = req;
    this.#meta = meta;
    this.#way = req.auth ? way : null;
    this.#price = price;
    this.#deps = deps;
    this.pending = meta.async && req.auth ? new PendingOperation(deps.asyncRequests, req) : null;
  }

  get priceCentavos(): number {
    return this.#price;
  }

  async chargeIn(trx: Transaction<DB>, opts: { debits?: readonly DebitLine[]; status?: number } = {}): Promise<void> {
    if (this.#way !== 'in-handler') throw new Error(`${this.#req.method} ${this.#req.routeOptions.url} is not charged in its handler (chargeWay)`);
    if (this.#charged) throw new Error('an operation is charged once');
    this.#charged = await this.#deps.ledger.chargeIn(trx, this.#charge(opts.status ?? 200, opts.debits));
    await keepIdempotentAnswer(trx, this.#req, { chargedBy: this.#charged.searchLogId });
  }

  /** Never rejects: every failure becomes the stored error response. */
  async execute(handler: RawHandler): Promise<StoredResponse> {
    try {
      return await this.#succeed(await handler(this.#req, this));
    } catch (err) {
      return this.#fail(err);
    }
  }

  /** The charge of this request: the route's query type, by default one debit of the price computed once, under the request id. */
  #charge(statusCode: number, debits?: readonly DebitLine[]): Charge {
    const req = this.#req;
    return {
      accountId: req.auth!.account.id,
      queryType: this.#meta.charge!,
      origin: { requestId: req.id, method: req.method, path: req.url.split('?')[0], statusCode },
      debits: debits ?? [{ operationId: req.id, centavos: this.#price }],
    };
  }

  async #succeed(outcome: Outcome): Promise<StoredResponse> {
    const pending = (await this.pending?.finish()) ?? false;
    const auth = this.#req.auth;
    const requestId = this.#req.id;
    if (this.#charged) {
      // Charged by the handler, in the transaction of what it created: committed by now.
      this.#afterChargeCommitted();
      this.#deps.accounts.noteBalance(auth!.account.id, this.#charged.remaining);
      return this.#finished(render(outcome, chargedMeta(requestId, this.#charged.searchLogId, this.#charged.centavos, this.#charged.remaining)));
    }
    if (this.#way === null) return this.#finished(render(outcome, { requestId }));
    if (this.#way !== 'on-success' || ('empty' in outcome && outcome.empty)) {
      // This answer charged nothing (its job charges, its handler created nothing, it found nothing):
      // a charged route still says so, with the balance as committed now.
      const remaining = (await this.#deps.accounts.balance(auth!.account.id)) ?? 0;
      return this.#finished(render(outcome, { requestId, creditsCharged: 0, creditsRemaining: toBrl(remaining) }));
    }
    const { ledger, accounts } = this.#deps;
    const charge = this.#charge('response' in outcome ? outcome.response.status : (outcome.status ?? 200));
    // What replays this answer (a pending operation's status URL, an Idempotency-Key) commits with the
    // charge; an answer nothing replays takes the batched charge (group commit).
    const { remaining, response } =
      pending || this.#req.idempotencyKey
        ? await ledger.transact(async (trx) => {
            const c = await ledger.chargeIn(trx, charge);
            const r = render(outcome, chargedMeta(requestId, c.searchLogId, c.centavos, c.remaining));
            if (pending) await this.pending!.complete(r, trx);
            await keepIdempotentAnswer(trx, this.#req, r);
            return { remaining: c.remaining, response: r };
          })
        : await ledger
            .charge(charge)
            .then((c) => ({ remaining: c.remaining, response: render(outcome, chargedMeta(requestId, c.searchLogId, c.centavos, c.remaining)) }));
    this.#afterChargeCommitted();
    // Committed: the next price checks of this account start from it.
    accounts.noteBalance(auth!.account.id, remaining);
    return response;
  }

  /** The fault-injection point of the crash drill (TRAMITA_DEV_CRASH_AFTER_CHARGE): dies between COMMIT and response. */
  #afterChargeCommitted(): void {
    if (this.#deps.config.devCrashAfterCharge) process.kill(process.pid, 'SIGKILL');
  }

  async #fail(err: unknown): Promise<StoredResponse> {
    const error = toApiError(err);
    if (error.code === 'INTERNAL_ERROR') this.#req.log.error({ err }, 'operation failed');
    const response = jsonResponse(error.status, errorBody(error, this.#req.id, languageOf(this.#req.headers['accept-language'])), error.headers);
    await this.pending?.complete(response).catch((e) => this.#req.log[backgroundFailureLevel(e)]({ err: e }, 'could not store the final response'));
    return response;
  }

  /** An uncharged final response: stored for the status URL when the operation went pending. */
  async #finished(response: StoredResponse): Promise<StoredResponse> {
    await this.pending?.complete(response);
    return response;
  }
}

/** The meta of a charged answer (spec §8): what it charged and what is left, in BRL. */
function chargedMeta(requestId: string, searchLogId: string, centavos: number, remaining: number) {
  return { requestId, searchLogId, creditsCharged: toBrl(centavos), creditsRemaining: toBrl(remaining) };
}

/** The envelope (spec §2.1): `{data, meta}`; a file carries its charge in headers instead. */
function render(outcome: Outcome, meta: Record<string, unknown>): StoredResponse {
  if ('response' in outcome) return outcome.response;
  const status = outcome.status ?? 200;
  if ('file' in outcome) {
    const headers: Record<string, string> = { ...outcome.file.headers, 'content-type': outcome.file.contentType, 'x-request-id': String(meta.requestId) };
    if (outcome.file.filename) headers['content-disposition'] = `attachment; filename="${outcome.file.filename.replace(/[^\w.-]/g, '_')}"`;
    if (meta.searchLogId) headers['x-search-log-id'] = String(meta.searchLogId);
    if (meta.creditsCharged !== undefined) headers['x-credits-charged'] = String(meta.creditsCharged);
    if (meta.creditsRemaining !== undefined) headers['x-credits-remaining'] = String(meta.creditsRemaining);
    return { status, headers, body: outcome.file.body };
  }
  return { status, headers: { 'content-type': JSON_TYPE, ...outcome.headers }, body: envelopeJson(outcome.data, { ...meta, ...outcome.meta }) };
}

/** When an estimate says the price is charged, by the route's ChargeWay (null: a free operation). */
const CHARGED_ON: Record<ChargeWay, 'success' | 'creation' | 'completion'> = {
  'on-success': 'success',
  'in-handler': 'creation',
  deferred: 'completion',
};

function estimate(req: FastifyRequest, meta: RouteMeta, way: ChargeWay | null, price: number, balance: number): StoredResponse {
  return jsonResponse(
    200,
    {
      data: {
        queryType: meta.charge ?? null,
        plan: req.auth?.account.plan ?? null,
        currency: 'BRL',
        price: toBrl(price),
        priceCentavos: price,
        balance: toBrl(balance),
        balanceCentavos: balance,
        sufficient: balance >= price,
        chargedOn: way ? CHARGED_ON[way] : null,
      },
      meta: { requestId: req.id, creditsCharged: 0, estimate: true },
    },
    { 'preference-applied': 'return=estimate' },
  );
}

export function wrapOperation(meta: RouteMeta, handler: RawHandler, deps: OperationDeps) {
  const way = meta.charge ? (meta.chargeWay ?? 'on-success') : null;
  return async function operation(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const price = meta.charge && req.auth ? deps.prices.priceFor(req.auth.account.plan, meta.charge) : 0;
    const prefs = parsePrefer(req);
    if (prefs.estimate && req.auth) return sendStored(reply, estimate(req, meta, way, price, (await deps.accounts.balance(req.auth.account.id)) ?? 0));
    // The balance auth saw may be seconds old (accounts/key-cache.ts): it may let a request through,
    // where the conditional debit is the real check, but it never refuses one without a fresh read.
    if (price > 0 && req.auth!.account.balance_centavos < price) {
      const balance = (await deps.accounts.balance(req.auth!.account.id)) ?? 0;
      if (balance < price) throw new ApiError('INSUFFICIENT_CREDITS', undefined, { price: toBrl(price), balance: toBrl(balance) });
    }
    const run = new Run(req, meta, way, price, deps);
    // A caller waits: one attempt per upstream, failing auxiliary sources not waited on (request-path.ts).
    const wait = { auxiliaryDeadlineMs: deps.config.auxiliaryDeadlineMs };
    const execute = () => whileCallerWaits(wait, () => run.execute(handler));
    if (!run.pending) return sendStored(reply, await execute());
    return sendStored(reply, await answerWithinWindow(req, run.pending, execute, prefs, deps, reply.elapsedTime));
  };
}
