/**
 * Publication and intimação monitors' plan for the paid-monitor lifecycle and renewal
 * (platform/monitoring/lifecycle.ts, renewal.ts), on the one `publication_monitors` table: one live
 * monitor per account, origin and target; a create or change may bring courts and sources; news is
 * heard from `desde`, the day it was created or reactivated. Charged per origin (MONITOR_QUERY_TYPES).
 */
import { defineRecurring } from '../../platform/jobs/job-type.ts';
import { addMs, iso } from '../../platform/clock.ts';
import { brasiliaDay } from '../../platform/format.ts';
import { newId } from '../../platform/ids.ts';
import { RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
import { monitorPlan, type MonitorAsk } from '../../platform/monitoring/lifecycle.ts';
import type { PublicationMonitorOrigin } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { MONITOR_QUERY_TYPES, type MonitorChanges, type MonitorTarget, type PublicationMonitorRow } from './store.ts';

export const PUBLICATION_CYCLE_JOB = 'publicacoes.monitores.ciclo';
export const PUBLICATION_CYCLE = defineRecurring(PUBLICATION_CYCLE_JOB);

const ID_PREFIX: Record<PublicationMonitorOrigin, string> = { INTIMACOES: 'int', PUBLICACOES: 'pmon' };

export interface PublicationMonitorAsk extends MonitorAsk, MonitorChanges {
  origem: PublicationMonitorOrigin;
  target: MonitorTarget;
}

/** A monitor hears publications from the day it is created, a gazette day: the day in Brasília (at 22:00 there it is already tomorrow in UTC). */
const creationDay = (now: Date): string => brasiliaDay(iso(now))!;

export const PUBLICATION_MONITORS = monitorPlan<PublicationMonitorRow, PublicationMonitorAsk>({
  table: 'publication_monitors',
  label: 'publication monitor',
  job: PUBLICATION_CYCLE,
  queryType: (m) => MONITOR_QUERY_TYPES[m.origem],
  // A new period changes nothing the matcher (monitor-index.ts) reads: no rebuild for it.
  stampsPeriod: false,
  key: (ask) => ({ origem: ask.origem, tipo: ask.target.tipo, valor: ask.target.valor }),
  newRow: (ask, now) => ({
    id: newId(ID_PREFIX[ask.origem]),
    account_id: ask.accountId,
    origem: ask.origem,
    tipo: ask.target.tipo,
    valor: ask.target.valor,
    termo: ask.target.termo,
    tribunais: listColumn(ask.tribunais),
    fontes: listColumn(ask.fontes),
    webhook_url: ask.webhookUrl ?? null,
    status: 'ATIVO',
    preco_centavos: ask.priceCentavos,
    periodo: 1,
    // Paid for one period from now; checked at the next cycle. Publications before today are history, not news.
    proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)),
    desde: creationDay(now),
    publicacoes: 0,
    ultima_verificacao_em: null,
    proxima_verificacao_em: iso(now),
    ultimo_erro: null,
    criado_em: iso(now),
    atualizado_em: iso(now),
    removido_em: null,
  }),
  changes: (m, c) => {
    const set: Partial<PublicationMonitorRow> = {};
    if (c.tribunais !== undefined && listColumn(c.tribunais) !== m.tribunais) set.tribunais = listColumn(c.tribunais);
    if (c.fontes !== undefined && listColumn(c.fontes) !== m.fontes) set.fontes = listColumn(c.fontes);
    return set;
  },
  reactivation: (suspended, ask, now) => ({
    termo: ask.target.termo,
    tribunais: ask.tribunais !== undefined ? listColumn(ask.tribunais) : suspended.tribunais,
    fontes: ask.fontes !== undefined ? listColumn(ask.fontes) : suspended.fontes,
    // What was published while it was suspended is history: the integrator did not pay for those days.
    desde: creationDay(now),
  }),
});

/** A JSON list column (courts, sources); null for every one. */
function listColumn(list: string[] | null | undefined): string | null {
  return list ? JSON.stringify(list) : null;
}

/** A change asked of a removed monitor: MONITOR_DEACTIVATED (its matches stay readable). */
export function deactivated(m: PublicationMonitorRow): ApiError {
  return new ApiError(
    'MONITOR_DEACTIVATED',
    `Monitor "${m.id}" was removed at ${m.removido_em}: its matches stay readable, but it can no longer change. Create a new one.`,
    { id: m.id },
  );
}
