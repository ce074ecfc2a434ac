/** The event each new publication a monitor matches becomes (spec §6.4): read by the ingest (publications/) and the monitor's view. */
import type { PublicationMonitorsTable } from '../../platform/db/schema.ts';
import type { EventKind } from '../../platform/events/kinds.ts';

/** Intimação monitors and process monitors report a gazette movement; term and OAB publication monitors a new publication. */
export function eventKindFor(
  m: Pick<PublicationMonitorsTable, 'origem' | 'tipo'>,
): Extract<EventKind, 'diario_movimentacao_nova' | 'publicacao_judicial_nova'> {
  return m.origem === 'INTIMACOES' || m.tipo === 'PROCESSO' ? 'diario_movimentacao_nova' : 'publicacao_judicial_nova';
}
