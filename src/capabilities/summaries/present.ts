/** The public views of summary executions and summaries. */
import type { Config } from '../../config.ts';
import { toBrl } from '../../platform/billing/prices.ts';
import type { CaseSummariesTable } from '../../platform/db/schema.ts';
import { absoluteUrl } from '../../platform/http/absolute-url.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';

export const statusPath = (numeroCnj: string, id: string) => `/v1/processos/cnj/${numeroCnj}/resumo-ia/status?request_id=${id}`;
export const summaryPath = (numeroCnj: string, id: string) => `/v1/processos/cnj/${numeroCnj}/resumo-ia?request_id=${id}`;
export const requestPath = (numeroCnj: string) => `/v1/processos/cnj/${numeroCnj}/resumo-ia/solicitar-atualizacao`;

export function executionView(config: Pick<Config, 'publicUrl' | 'host' | 'port'>, s: CaseSummariesTable) {
  return {
    providerRequestId: s.id,
    numeroCnj: formatCnj(s.numero_cnj),
    status: s.status,
    etapa: s.etapa,
    metodo: s.metodo,
    modelo: s.modelo,
    enviarCallback: s.enviar_callback === 1,
    criadoEm: s.criado_em,
    iniciadoEm: s.iniciado_em,
    concluidoEm: s.concluido_em,
    erro: s.erro_codigo ? { codigo: s.erro_codigo, mensagem: s.erro_mensagem } : null,
    preco: toBrl(s.preco_centavos),
    statusUrl: absoluteUrl(config, statusPath(s.numero_cnj, s.id)),
    resumoUrl: absoluteUrl(config, summaryPath(s.numero_cnj, s.id)),
  };
}
