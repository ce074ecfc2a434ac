/**
 * Event `data` in the shapes integrators' receivers extract (reference/integrator-conventions.md §9.3),
 * applied once, where every event is recorded (EventLog.record), so the feed and every webhook agree:
 * - the CNJ is masked, as in REST (`numeroCnj`), with its digits beside it (`numeroCnjDigitos`), and a
 *   case event names its case as `processo {numero_unico, numeroCnj, origem}`;
 * - a movement event carries its newest movement as `event_data {id, data, conteudo}`: the same `data`
 *   and `conteudo` strings as the REST listing, so a receiver deduplicating on them sees one movement;
 * - a gazette event carries its publication as `movimentacao {…}` too (the commercial service's shape:
 *   masked number in `numero_processo`, `processo_id` and `processo.numero_novo`, HTML in `conteudo`).
 * Tramita's own fields stay (spec §9.5).
 */
import { formatCnj } from '../identifiers/cnj.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DIGITS = /^\d{20}$/;

export function integratorData(data: unknown): unknown {
  if (!isObject(data)) return data;
  let out: Json = data;
  const cnj = typeof data.numeroCnj === 'string' && DIGITS.test(data.numeroCnj) ? data.numeroCnj : null;
  if (cnj) {
    out = { ...out, numeroCnj: formatCnj(cnj), numeroCnjDigitos: cnj };
    if (!('processo' in out))
      out.processo = { numero_unico: formatCnj(cnj), numeroCnj: formatCnj(cnj), origem: typeof data.tribunal === 'string' ? data.tribunal : null };
  }
  const newest = Array.isArray(data.movimentacoes) && isObject(data.movimentacoes[0]) ? data.movimentacoes[0] : null;
  if (newest) out.event_data = { id: newest.id ?? null, data: newest.data ?? null, conteudo: newest.conteudo ?? null };
  if (isObject(data.publicacao)) out.movimentacao = gazetteMovement(data.publicacao, isObject(data.monitoramento) ? data.monitoramento : null);
  return out;
}

/** A publication (publicationView's shape) as the commercial service's gazette `movimentacao`. */
function gazetteMovement(p: Json, monitor: Json | null): Json {
  const masked = typeof p.numeroCnjFormatado === 'string' ? p.numeroCnjFormatado : null;
  const day = typeof p.dataDisponibilizacao === 'string' ? p.dataDisponibilizacao : null;
  const lawyers = Array.isArray(p.advogados) ? p.advogados.filter(isObject) : [];
  const addressees = Array.isArray(p.destinatarios) ? p.destinatarios.filter(isObject) : [];
  return {
    id: p.id ?? null,
    data: day ? `${day} 00:00:00` : null,
    tipo: p.tipoComunicacao ?? null,
    secao: p.orgao ?? null,
    texto_categoria: p.tipoDocumento ?? null,
    conteudo: p.textoHtml ?? p.texto ?? null,
    numero_processo: masked,
    processo_id: masked,
    processo: { numero_novo: masked },
    diario_oficial: day ? `${day.split('-').reverse().join('/')} | Diário de Justiça Eletrônico Nacional - ${String(p.tribunal ?? '')}` : null,
    estado: null,
    pagina: null,
    envolvidos: [
      ...addressees.map((d) => ({ nome: d.nome ?? null, envolvido_tipo: d.polo ?? null, oab: null })),
      ...lawyers.map((a) => ({
        nome: a.nome ?? null,
        envolvido_tipo: 'Advogado',
        oab: typeof a.oab === 'string' ? `${a.oab.slice(2)}/${a.oab.slice(0, 2)}` : null,
      })),
    ],
    link: p.link_api ?? null,
    link_api: p.link_api ?? null,
    link_pdf: p.certidao ?? null,
    link_publicacao_tribunal: p.link_publicacao_tribunal ?? null,
    ...(monitor ? { monitoramento: [{ termo: monitor.termo ?? null, tipo: monitor.tipo ?? null, descricao: monitor.origem ?? null }] } : {}),
  };
}
