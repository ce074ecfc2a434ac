/**
 * The gazettes' publications as the publication store keeps them (publications/store.ts): one table,
 * one full-text index, one OAB index and one matching path with DJEN's. Each source's own fields map
 * onto the common record; what has no column (an STF item's relator, sessão, dates) stays in `raw`,
 * where the views (present.ts) read it (`raw` is what the source gave, for RAW webhooks). Ids never collide with DJEN's numeric ones: `STF:<id>` and
 * `<tribunal>:<edição>:<ordem>`.
 */
import { trailingParenthesis } from '../../platform/text-scan.ts';
import type { ElectoralPublicationRecord } from '../../platform/ports/electoral.ts';
import type { PublicationLawyer, PublicationRecord } from '../../platform/ports/publications.ts';
import type { StfPublicationRecord } from '../../platform/ports/stf.ts';

export const STF_ID_PREFIX = 'STF:';

/** The store's id of an STF publication, from the id its searches show (STF's own). */
export function stfStoreId(id: string): string {
  return `${STF_ID_PREFIX}${id}`;
}

/** Polos as DJEN writes them (A, P); INTERESSADO and others as the STF sends them. */
const POLO: Record<string, string> = { ATIVO: 'A', PASSIVO: 'P' };

/**
 * The STF's item as a stored publication: the day is the divulgação day; each lawyer once per OAB (every
 * registration of an `OAB's (…)` list, so each reaches the OAB index and the monitors), a lawyer with
 * none once without; the parties apart from the lawyers; the placeholder `Sem Representação nos Autos`
 * in neither (it names nobody).
 */
export function stfRecord(r: StfPublicationRecord): PublicationRecord {
  const lawyers = r.envolvidos.filter((e) => e.papel === 'advogado');
  const sigla = /^[A-Za-z]+/.exec(r.processo)?.[0] ?? null;
  return {
    id: stfStoreId(r.id),
    hash: null,
    numeroCnj: null,
    tribunal: 'STF',
    dataDisponibilizacao: r.divulgacao,
    tipoComunicacao: r.tipo,
    tipoDocumento: r.descricao,
    orgao: { id: null, nome: r.colegiado ?? r.relator ?? 'STF' },
    classe: sigla ? { codigo: sigla, nome: sigla } : null,
    meio: 'D',
    numeroComunicacao: r.processo,
    texto: r.html,
    link: r.processoId ? `https://portal.stf.jus.br/processos/detalhe.asp?incidente=${encodeURIComponent(r.processoId)}` : null,
    ativo: true,
    cancelamento: null,
    destinatarios: r.envolvidos.filter((e) => e.papel === 'parte').map((e) => ({ nome: e.nome, polo: POLO[e.polo ?? ''] ?? e.polo ?? '' })),
    advogados: lawyers.flatMap((l): PublicationLawyer[] => (l.oabs.length > 0 ? l.oabs.map((oab) => ({ nome: l.nome, oab })) : [{ nome: l.nome, oab: null }])),
    // The item exactly as STF sent it (RAW webhooks); the view reads relator, sessão and dates from it.
    raw: r.raw,
  };
}

/** `CUMPRIMENTO DE SENTENÇA (156)` → `CUMPRIMENTO DE SENTENÇA`: /\s*\(\d+\)\s*$/ removed, in one pass. */
function withoutCode(classe: string): string {
  const paren = trailingParenthesis(classe);
  return paren && /^\d+$/.test(paren.inside) ? paren.before.trimEnd() : classe;
}

export function electoralRecord(r: ElectoralPublicationRecord): PublicationRecord {
  return {
    id: r.id,
    hash: null,
    numeroCnj: r.numeroCnj,
    tribunal: r.tribunal,
    dataDisponibilizacao: r.data,
    tipoComunicacao: 'Publicação',
    tipoDocumento: null,
    orgao: { id: null, nome: r.tribunal },
    classe: r.classe ? { codigo: /\((\d+)\)/.exec(r.classe)?.[1] ?? r.classe, nome: withoutCode(r.classe) } : null,
    meio: 'D',
    numeroComunicacao: `${r.edicao}/${r.ordem}`,
    texto: r.texto,
    link: null,
    ativo: true,
    cancelamento: null,
    destinatarios: r.partes.map((p) => ({ nome: p.nome, polo: p.papel })),
    advogados: r.advogados,
    raw: r.raw,
  };
}
