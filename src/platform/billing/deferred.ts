/**
 * The deferred way to charge (a route with `chargeWay: 'deferred'`): the request records the work
 * with its price and answers uncharged; the job that completes the work charges it, once, in the
 * transaction that marks it done. Every such charge is built here, the same way: its search log names
 * the request that started the work, and its operation id is the work's id, so completing the work
 * twice (two workers, a retried job) can never charge it twice.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { ChargeReceipt } from './charge.ts';
import type { Ledger } from './ledger.ts';

/** The columns every table of deferred work keeps from the request that started it. */
export interface DeferredWork {
  id: string | number;
  account_id: string;
  /** The request that started the work (its `x-request-id`). */
  request_id: string;
  /** Its price, fixed when the request was priced. */
  preco_centavos: number;
}

/** How one kind of deferred work is charged: declared once, beside its job. */
export interface DeferredCharge<W extends DeferredWork> {
  /** The route's query type (`meta.charge`). */
  queryType: string;
  /** The path of the POST that started the work (the search log's origin). */
  requestPath(work: W): string;
  /**
   * For a work whose id is a number (unique in its own table only): the operation id is `<idPrefix>:<id>`. Else it is the id itself (made by newId, unique).
   */
  idPrefix?: string;
}

/**
 * Charges completed deferred work inside `trx`: the search log of its request and one ledger row
 * under its operation id. Work priced 0 writes nothing. 403 INSUFFICIENT_CREDITS rolls `trx` back.
 */
export async function chargeDeferred<W extends DeferredWork>(
  ledger: Ledger,
  trx: Transaction<DB>,
  kind: DeferredCharge<W>,
  work: W,
): Promise<ChargeReceipt | undefined> {
  if (work.preco_centavos <= 0) return undefined;
  return ledger.chargeIn(trx, {
    accountId: work.account_id,
    queryType: kind.queryType,
    // The work was started by a POST that answered 200 (or 202): the search log records it as answered.
    origin: { requestId: work.request_id, method: 'POST', path: kind.requestPath(work), statusCode: 200 },
    debits: [{ operationId: kind.idPrefix ? `${kind.idPrefix}:${work.id}` : String(work.id), centavos: work.preco_centavos }],
  });
}
