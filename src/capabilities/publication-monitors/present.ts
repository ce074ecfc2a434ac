/** An intimação / publication monitor as integrators see it (schemas.ts PublicationMonitor). */
import { toBrl } from '../../platform/billing/prices.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { scheduleFieldsOf } from '../../platform/monitoring/schemas.ts';
import { eventKindFor } from './event-kind.ts';
import type { PublicationMonitorRow } from './store.ts';

/** The monitor as integrators see it; next check and charge times only while it is ATIVO. */
export function monitorView(m: PublicationMonitorRow) {
  return {
    id: m.id,
    origem: m.origem,
    tipo: m.tipo,
    termo: m.termo,
    oab: m.tipo === 'OAB' ? m.valor : null,
    numeroCnj: m.tipo === 'PROCESSO' ? formatCnj(m.valor) : null,
    tribunais: m.tribunais === null ? null : (JSON.parse(m.tribunais) as string[]),
    fontes: m.fontes === null ? null : (JSON.parse(m.fontes) as string[]),
    webhookUrl: m.webhook_url,
    evento: eventKindFor(m),
    status: m.status,
    preco: toBrl(m.preco_centavos),
    desde: m.desde,
    publicacoes: m.publicacoes,
    ...scheduleFieldsOf(m),
    atualizadoEm: m.atualizado_em,
    removidoEm: m.removido_em,
  };
}
