/**
 * A route's charge written inside the transaction of its own writes. The operation runner
 * (platform/http/operation.ts) charges in a transaction of its own after the handler returned, so
 * an object the handler created (a monitor, a radar) would survive a debit that fails there (the
 * balance spent meanwhile by a concurrent request). Routes that create paid objects charge here
 * instead, writing exactly what the runner would (search log, conditional debit, ledger row), and
 * answer `free: true` with this charge in their `meta`, so the runner neither charges again nor
 * reports 0. A failed debit throws 403 INSUFFICIENT_CREDITS and rolls the object back with it.
 */
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { toBrl } from './prices.ts';
import type { DB } from '../db/schema.ts';
import type { Services } from '../services.ts';

export interface InlineCharge {
  queryType: string;
  priceCentavos: number;
  /** The ledger's operation id (unique per account): what makes a second charge impossible. */
  operationId: string;
  /** The HTTP status the route answers with (recorded in the search log). */
  status: number;
}

/** The meta of a charged answer (`searchLogId`, `creditsCharged`, `creditsRemaining`). */
export type ChargeMeta = { searchLogId: string; creditsCharged: number; creditsRemaining: number };

/** Debits in `trx`; throws 403 INSUFFICIENT_CREDITS (rolling `trx` back) when the balance no longer covers it. */
export async function chargeInTransaction(s: Services, trx: Transaction<DB>, req: FastifyRequest, c: InlineCharge): Promise<ChargeMeta> {
  const { searchLogId, remaining } = await s.ledger.chargeIn(trx, {
    accountId: req.auth!.account.id, centavos: c.priceCentavos, operationId: c.operationId, queryType: c.queryType,
    requestId: req.id, method: req.method, path: req.url.split('?')[0], statusCode: c.status,
  });
  return { searchLogId, creditsCharged: toBrl(c.priceCentavos), creditsRemaining: toBrl(remaining) };
}
