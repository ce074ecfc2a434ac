/**
 * The charge types, one family: a `Charge` says what one charge writes (one search log for its
 * `origin`, one ledger row per `DebitLine`); a `ChargeReceipt` says what it wrote. Every way into the
 * ledger builds a `Charge` and hands it to Ledger.chargeIn (or Ledger.charge, the request path's batch).
 */

/**
 * What the search log records about a charge: the answered request, or, for background work, the
 * request that started it (chargeDeferred) or `JOB <kind>` (a renewal, jobOrigin).
 */
export interface ChargeOrigin {
  requestId: string;
  method: string;
  path: string;
  statusCode: number;
}

/** One debit: one ledger row. Its operation id is unique per account, so it can never be charged twice. */
export interface DebitLine {
  operationId: string;
  centavos: number;
}

/** One charge of one account: one search log with the total, one ledger row per debit of more than 0. */
export interface Charge {
  accountId: string;
  queryType: string;
  origin: ChargeOrigin;
  debits: readonly DebitLine[];
}

/** What a charge wrote (`meta.searchLogId`, `creditsCharged`, `creditsRemaining`), in centavos. */
export interface ChargeReceipt {
  searchLogId: string;
  /** The total of its debits. */
  centavos: number;
  /** The balance after it. */
  remaining: number;
}

/** The total of a charge's debits, in centavos. */
export function chargeTotal(c: Charge): number {
  let total = 0;
  for (const d of c.debits) total += d.centavos;
  return total;
}

/** The origin of a charge made by a background job for an account: `JOB <kind>`, under the debit's operation id. */
export function jobOrigin(jobKind: string, operationId: string): ChargeOrigin {
  return { requestId: operationId, method: 'JOB', path: jobKind, statusCode: 200 };
}
