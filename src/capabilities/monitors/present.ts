/** A case monitor as integrators see it (its twins: schemas.ts MonitorShape). */
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { checkedMonitorFieldsOf } from '../../platform/monitoring/schemas.ts';
import { MonitorShape } from './schemas.ts';
import type { MonitorRow } from './store.ts';

/** Next check and charge times only while it is ATIVO. */
export function monitorView(m: MonitorRow) {
  return MonitorShape.present({
    id: m.id,
    numeroCnj: formatCnj(m.numero_cnj),
    tribunal: m.tribunal,
    ...checkedMonitorFieldsOf(m),
    removidoEm: m.removido_em,
    atualizadoEm: m.atualizado_em,
  });
}
