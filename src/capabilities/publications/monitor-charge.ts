/**
 * The first period of publication monitors, charged inside the transaction that created (or
 * reactivated) them, as platform/billing/inline-charge.ts does for one object: here one request may
 * create many (POST /v1/intimacoes/oab with `oabs`), so ONE search log carries the total and each
 * monitor gets its own ledger row, keyed `<id>:<periodo>` like the renewals that follow. A balance
 * short of the total throws 403 INSUFFICIENT_CREDITS and rolls every monitor of the request back.
 */
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { ChargeMeta } from '../../platform/billing/inline-charge.ts';
import { toBrl } from '../../platform/billing/prices.ts';
import type { DB } from '../../platform/db/schema.ts';
import { newId } from '../../platform/ids.ts';
import type { Services } from '../../platform/services.ts';
import type { PublicationMonitorRow } from './monitors.ts';

export async function chargeMonitors(s: Services, trx: Transaction<DB>, req: FastifyRequest, c: { queryType: string; status: number; monitors: readonly PublicationMonitorRow[] }): Promise<ChargeMeta> {
  const account = req.auth!.account;
  const searchLogId = newId('sl');
  const total = c.monitors.reduce((sum, m) => sum + m.preco_centavos, 0);
  await s.ledger.recordSearch(trx, {
    id: searchLogId, accountId: account.id, requestId: req.id, queryType: c.queryType,
    method: req.method, path: req.url.split('?')[0], statusCode: c.status, chargedCentavos: total,
  });
  let remaining: number | undefined;
  for (const m of c.monitors) {
    if (m.preco_centavos <= 0) continue;
    remaining = await s.ledger.debit(trx, { accountId: account.id, centavos: m.preco_centavos, operationId: `${m.id}:${m.periodo}`, queryType: c.queryType, searchLogId });
  }
  remaining ??= (await s.ledger.balanceIn(trx, account.id)) ?? 0;
  return { searchLogId, creditsCharged: toBrl(total), creditsRemaining: toBrl(remaining) };
}
