/** The JSON integrators see for a radar and for a result (one shape for every route and for events). */
import { toBrl } from '../../platform/billing/prices.ts';
import type { RadarResultsTable, RadarsTable } from '../../platform/db/schema.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { maskDocument, type Correspondence } from './match.ts';

export function radarView(r: RadarsTable) {
  const live = r.status !== 'DESATIVADO';
  return {
    id: r.id,
    termo: r.termo,
    tipo: r.tipo,
    variacoes: JSON.parse(r.variacoes) as string[],
    tribunais: JSON.parse(r.tribunais) as string[],
    classes: JSON.parse(r.classes) as string[],
    termosObrigatorios: JSON.parse(r.termos_obrigatorios) as string[],
    termosProibidos: JSON.parse(r.termos_proibidos) as string[],
    webhookUrl: r.webhook_url,
    frequencia: r.frequencia,
    status: r.status,
    preco: toBrl(r.preco_centavos),
    resultadosTotal: r.resultados_total,
    ultimaVerificacaoEm: r.ultima_verificacao_em,
    // Only an ATIVO radar is checked; a SUSPENSO one waits for its renewal, a DESATIVADO one for nothing.
    proximaVerificacaoEm: r.status === 'ATIVO' ? r.proxima_verificacao_em : null,
    proximaCobrancaEm: live ? r.proxima_cobranca_em : null,
    ultimaSincronizacaoEm: r.ultima_sincronizacao_em,
    ultimoErro: r.ultimo_erro,
    criadoEm: r.criado_em,
    desativadoEm: r.desativado_em,
  };
}

export function correspondenceView(c: Correspondence) {
  return { nome: c.nome, documento: maskDocument(c.documento), polo: c.polo, tipo: c.tipo };
}

export function resultView(r: RadarResultsTable) {
  return {
    id: r.id,
    radarId: r.radar_id,
    numeroCnj: formatCnj(r.numero_cnj),
    tribunal: r.tribunal,
    classe: r.classe,
    dataAjuizamento: r.data_ajuizamento,
    correspondencias: (JSON.parse(r.correspondencias) as Correspondence[]).map(correspondenceView),
    linhaDeBase: r.linha_de_base === 1,
    encontradoEm: r.encontrado_em,
    dia: r.dia,
    qualificacao: r.qualificacao,
    qualificacaoNota: r.qualificacao_nota,
    qualificadoEm: r.qualificado_em,
    arquivado: r.arquivado === 1,
    arquivadoEm: r.arquivado_em,
  };
}
