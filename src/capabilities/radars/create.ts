/**
 * Creating a radar (spec §4.8). Validate; take the baseline (what the provider lists now is not news);
 * then ONE transaction (the paid-monitor lifecycle, RADARS) writes the radar, its baseline results
 * (linha_de_base = 1, no events) and its first period's charge (the runner's OperationContext.chargeIn),
 * so a failed debit leaves no radar behind. When the provider fails, the radar is created anyway, with `ultimo_erro` and due
 * at once: the next cycle (or a `sincronizar`) takes the baseline, still without events.
 */
import type { FastifyRequest } from 'fastify';
import type { OperationContext } from '../../platform/http/route.ts';
import { addMs, iso } from '../../platform/clock.ts';
import type { Transaction } from 'kysely';
import type { DB, RadarsTable } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { DEFAULT_FREQUENCY, frequencyMs, RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
import { createMonitor } from '../../platform/monitoring/lifecycle.ts';
import { periodDebit } from '../../platform/monitoring/renewal.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { describeFailure, findMatches, recordResult, type RadarMatch } from './check.ts';
import { filterColumns, type FilterInput } from './input.ts';
import { RADARS } from './lifecycle.ts';
import { criteriaOf, parseTerm, type RadarTerm } from './match.ts';
import type { RadarParts } from './parts.ts';
import type { RadarFilterSet } from './store.ts';

export interface CreateInput extends FilterInput {
  termo: string;
}

export async function createRadar(m: RadarParts, req: FastifyRequest, op: OperationContext, body: CreateInput): Promise<RadarsTable> {
  const s = m.services;
  const term = parseTerm(body.termo);
  const filters = await filterColumns(s, body, term.tipo);
  const details = s.sources.details;
  if (!details)
    throw new ApiError('DETAILS_UNAVAILABLE', 'No case-details provider is configured (TRAMITA_PORTAL_URL): a radar needs one to know where a party appears.');
  const account = req.auth!.account;
  const draft = radarRow(m, account.id, op.priceCentavos, term, filters);

  let matches: RadarMatch[] = [];
  try {
    matches = await findMatches(m.cases, details, criteriaOf(draft), new Set());
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    Object.assign(draft, { ultima_verificacao_em: null, proxima_verificacao_em: draft.criado_em, ultimo_erro: describeFailure(err) });
  }
  // Per-radar webhook_url deliveries are signed with the account's secret: make sure the account has one.
  if (draft.webhook_url) await s.webhooks.configs.ensure(account.id);

  const ask = {
    accountId: account.id,
    priceCentavos: op.priceCentavos,
    row: draft,
    baseline: async (trx: Transaction<DB>, radar: RadarsTable) => {
      for (const match of matches) await recordResult(m, trx, radar, match, true);
    },
  };
  await createMonitor(s, RADARS, ask, (trx, c) => op.chargeIn(trx, { debits: [periodDebit(c.monitor)], status: 201 }));
  return (await m.store.byId(draft.id))!;
}

/** A new radar, ATIVO, in its first period, checked now (the baseline). */
function radarRow(m: RadarParts, accountId: string, priceCentavos: number, term: RadarTerm, f: RadarFilterSet): RadarsTable {
  const now = m.services.clock.now();
  const frequencia = f.frequencia ?? DEFAULT_FREQUENCY;
  return {
    id: newId('rad'),
    account_id: accountId,
    termo: term.termo,
    tipo: term.tipo,
    termo_normalizado: term.normalizado,
    variacoes: f.variacoes ?? '[]',
    tribunais: f.tribunais ?? '[]',
    classes: f.classes ?? '[]',
    termos_obrigatorios: f.termos_obrigatorios ?? '[]',
    termos_proibidos: f.termos_proibidos ?? '[]',
    webhook_url: f.webhook_url ?? null,
    frequencia,
    status: 'ATIVO',
    preco_centavos: priceCentavos,
    resultados_total: 0,
    ultima_verificacao_em: iso(now),
    proxima_verificacao_em: iso(addMs(now, frequencyMs(frequencia, m.services.config.monitorIntervalMs))),
    proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)),
    periodo: 1,
    ultima_sincronizacao_em: null,
    ultimo_erro: null,
    criado_em: iso(now),
    atualizado_em: iso(now),
    desativado_em: null,
  };
}
