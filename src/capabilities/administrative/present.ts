/**
 * An administrative process as integrators read it (spec §4.7): newest tramitação first, the body and
 * the source named; and a monitor of one (spec §4.8).
 */
import { formatNup } from '../../platform/identifiers/nup.ts';
import { checkedMonitorFieldsOf } from '../../platform/monitoring/schemas.ts';
import type { AdministrativeMovement } from '../../platform/ports/administrative.ts';
import type { AdministrativeBody } from './bodies.ts';
import type { AdminMonitorRow } from './monitor-store.ts';
import { AdminMonitorShape, TramitacaoShape } from './schemas.ts';
import { movementsOf, type ProcessRow } from './store.ts';

/** The official page of the process (public; none for the sandbox's fictitious NUPs). */
export const officialPage = (nup: string) => `https://protocolointegrado.gov.br/protocolo/documento/detalhes_documento.jsf?protocolo=${nup}`;

export function movementView(m: AdministrativeMovement) {
  return TramitacaoShape.present({ id: m.key, dataHora: m.dataHora, operacao: m.operacao, unidadeOrigem: m.unidadeOrigem, unidadeDestino: m.unidadeDestino });
}

export function bodyView(b: AdministrativeBody, unidade: string) {
  return { sigla: b.sigla, nome: b.nome, esfera: b.esfera, unidadeProtocolizadora: unidade };
}

export function processView(row: ProcessRow, body: AdministrativeBody, sandbox: boolean) {
  const tramitacoes = movementsOf(row).reverse().map(movementView);
  return {
    nup: formatNup(row.nup),
    nupDigitos: row.nup,
    orgao: bodyView(body, row.unidade),
    tipo: row.tipo,
    assunto: row.assunto,
    interessados: (JSON.parse(row.interessados) as string[]).map((nome) => ({ nome })),
    orgaoOrigem: row.orgao_origem,
    dataAutuacao: row.data_autuacao,
    quantidadeTramitacoes: row.tramitacoes_total,
    ultimaTramitacao: tramitacoes[0] ?? null,
    tramitacoes,
    fonte: { nome: row.fonte, url: sandbox ? null : officialPage(row.nup), coletadoEm: row.coletado_em, sandbox },
  };
}

/** The monitor as integrators see it (its twins: AdminMonitorShape); next check and charge times only while it is ATIVO. */
export function adminMonitorView(m: AdminMonitorRow) {
  return AdminMonitorShape.present({
    id: m.id,
    nup: formatNup(m.nup),
    ...checkedMonitorFieldsOf(m),
    atualizadoEm: m.atualizado_em,
    removidoEm: m.removido_em,
  });
}
