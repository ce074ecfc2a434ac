/** A case monitor as integrators see it (its twins: schemas.ts MonitorShape). */
import { toBrl } from '../../platform/billing/prices.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { scheduleFieldsOf } from '../../platform/monitoring/schemas.ts';
import { MonitorShape } from './schemas.ts';
import type { MonitorRow } from './store.ts';

/** Next check and charge times only while it is ATIVO. */
export function monitorView(m: MonitorRow) {
  return MonitorShape.present({
    id: m.id,
    numeroCnj: formatCnj(m.numero_cnj),
    tribunal: m.tribunal,
    frequencia: m.frequencia,
    webhookUrl: m.webhook_url,
    status: m.status,
    situacao: m.situacao,
    preco: toBrl(m.preco_centavos),
    verificacoes: m.verificacoes,
    novidades: m.novidades,
    ...scheduleFieldsOf(m),
    removidoEm: m.removido_em,
    atualizadoEm: m.atualizado_em,
  });
}
