/**
 * Event `data` in the shapes integrators' receivers extract (reference/integrator-conventions.md §9.3).
 * Each event kind names the shapers it is presented with in its declaration (events/catalog.ts); the
 * event engine applies them once, where every event is recorded (EventLog.record), so the feed and
 * every webhook agree. A shaper declares the fields it adds (`adds`), so docs/webhooks.md and the SDK's
 * types list them beside the emitter's own. Tramita's own fields stay (spec §9.5).
 */
import { Type, type TProperties } from 'typebox';
import { formatCnj } from '../identifiers/cnj.ts';
import { Nullable } from '../http/nullable.ts';

type Json = Record<string, unknown>;

/** One presentation step: what it adds to `data` (schemas) and how (a function of the data so far). */
export interface Shaper {
  readonly name: string;
  readonly adds: TProperties;
  readonly apply: (data: Json) => Json;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DIGITS = /^\d{20}$/;
const text = Nullable(Type.String());

/**
 * A case event: the CNJ masked, as in REST (`numeroCnj`), its digits beside it (`numeroCnjDigitos`),
 * and the case named as `processo {numero_unico, numeroCnj, origem}`. Nothing when the event has no case.
 */
export const caseIdentity: Shaper = {
  name: 'case',
  adds: {
    numeroCnjDigitos: Type.Optional(Type.String({ description: 'The 20 digits of `numeroCnj` (which is masked); absent when the event has no case.' })),
    processo: Type.Optional(
      Type.Object(
        { numero_unico: Type.String(), numeroCnj: Type.String(), origem: text },
        { description: 'The case as integrators of the commercial service read it: masked number twice, court sigla in `origem`.' },
      ),
    ),
  },
  apply(data) {
    const cnj = typeof data.numeroCnj === 'string' && DIGITS.test(data.numeroCnj) ? data.numeroCnj : null;
    if (!cnj) return data;
    const out: Json = { ...data, numeroCnj: formatCnj(cnj), numeroCnjDigitos: cnj };
    if (!('processo' in out))
      out.processo = { numero_unico: formatCnj(cnj), numeroCnj: formatCnj(cnj), origem: typeof data.tribunal === 'string' ? data.tribunal : null };
    return out;
  },
};

/**
 * A movement event: its newest movement as `event_data {id, data, conteudo}`, the same `data` and
 * `conteudo` strings as the REST listing, so a receiver deduplicating on them sees one movement.
 */
export const newestMovement: Shaper = {
  name: 'movement',
  adds: {
    event_data: Type.Optional(
      Type.Object(
        { id: Type.Unknown(), data: Type.Unknown(), conteudo: Type.Unknown() },
        { description: 'The newest movement of `movimentacoes`: its `id`, `data` (dd/mm/aaaa) and `conteudo`.' },
      ),
    ),
  },
  apply(data) {
    const newest = Array.isArray(data.movimentacoes) && isObject(data.movimentacoes[0]) ? data.movimentacoes[0] : null;
    if (!newest) return data;
    return { ...data, event_data: { id: newest.id ?? null, data: newest.data ?? null, conteudo: newest.conteudo ?? null } };
  },
};

/**
 * A gazette event: its publication (publicationView's shape) as the commercial service's gazette
 * `movimentacao {…}` too: masked number in `numero_processo`, `processo_id` and `processo.numero_novo`,
 * HTML in `conteudo`.
 */
export const gazetteMovement: Shaper = {
  name: 'gazette',
  adds: {
    movimentacao: Type.Optional(
      Type.Object(
        {
          id: Type.Unknown(),
          data: text,
          tipo: Type.Unknown(),
          secao: Type.Unknown(),
          texto_categoria: Type.Unknown(),
          conteudo: Type.Unknown(),
          numero_processo: text,
          processo_id: text,
          processo: Type.Object({ numero_novo: text }),
          diario_oficial: text,
          estado: Type.Null(),
          pagina: Type.Null(),
          envolvidos: Type.Array(Type.Object({ nome: Type.Unknown(), envolvido_tipo: Type.Unknown(), oab: text })),
          link: Type.Unknown(),
          link_api: Type.Unknown(),
          link_pdf: Type.Unknown(),
          link_publicacao_tribunal: Type.Unknown(),
          monitoramento: Type.Optional(Type.Array(Type.Object({ termo: Type.Unknown(), tipo: Type.Unknown(), descricao: Type.Unknown() }))),
        },
        { description: "`publicacao` in the commercial service's gazette shape (reference/integrator-conventions.md §9.3)." },
      ),
    ),
  },
  apply(data) {
    if (!isObject(data.publicacao)) return data;
    return { ...data, movimentacao: gazetteView(data.publicacao, isObject(data.monitoramento) ? data.monitoramento : null) };
  },
};

/** `data` as integrators receive it: the kind's shapers applied in their order. */
export function integratorData(shapers: readonly Shaper[], data: Json): Json {
  return shapers.reduce((out, s) => s.apply(out), data);
}

function gazetteView(p: Json, monitor: Json | null): Json {
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
