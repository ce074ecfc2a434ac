/** How a stored movement is shown: one presenter for REST answers and the events monitors and webhooks receive. */
import type { MovementRecord } from '../../platform/ports/case-metadata.ts';
import { describeMovement } from './movement-text.ts';
import { MovementShape } from './schemas.ts';

/**
 * A movement in REST and in events alike: Tramita's fields (TPU code, instance, complements) and the
 * ones integrators of the commercial service read (conventions §4.3): `data` (dd/mm/aaaa, Brasília),
 * `conteudo` (its text), `tipo` and `classificacao_predita` (here the TPU's own classification).
 */
export function publicMovement(m: MovementRecord) {
  return MovementShape.present({
    id: m.key,
    dataHora: m.dataHora,
    codigo: m.codigo,
    nome: m.nome,
    grau: m.grau,
    complementos: m.complementos,
    orgaoJulgador: m.orgaoJulgador,
    conteudo: describeMovement(m),
    texto: m.texto ?? null,
  });
}
