/** The JSON integrators see for a case, built from the store (one shape for covers, lists and PDFs). */
import { JsonText } from '../../platform/http/stored-response.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { formatCnpj, formatCpf } from '../../platform/identifiers/cpf-cnpj.ts';
import { courtBySigla } from '../../platform/courts/table.ts';
import type { PartyRecord } from '../../platform/ports/case-details.ts';
import type { Sources } from '../../platform/ports/sources.ts';
import { processObject, valorCausaObject } from './process-object.ts';
import { CaseShape } from './schemas.ts';
import type { DetailsFailure, Lookup } from './lookup.ts';
import { mainInstance } from './main-instance.ts';
import { publicMovement } from './movements.ts';
import type { StoredCase } from './store.ts';

/** `meta.source`: where the answer came from, and whether it is sandbox (fictitious) data. */
export function sourceMeta(l: Lookup) {
  return {
    source: {
      name: l.stored.row.fonte,
      sandbox: l.stored.row.sandbox === 1,
      servedFrom: l.servedFrom,
      stale: l.stale,
      consultadoEm: l.stored.row.consultado_em,
    },
  };
}

/** `meta.source` of listings, which mix cases fetched at different times: who answered, and whether it is sandbox data. */
export function sourcesMeta(sources: Sources) {
  return { source: { name: sources.cases.info.name, sandbox: sources.cases.info.sandbox, detalhes: sources.details?.info.name ?? null } };
}

/** A party of the cover; `fonte` names the source that gave it and its lawyers (`DJEN`, `e-SAJ TJSP`, the provider's name). */
export function partyView(p: PartyRecord, fonte: string | null) {
  const documento = p.documento === null ? null : p.documento.length === 11 ? formatCpf(p.documento) : formatCnpj(p.documento);
  return {
    polo: p.polo,
    // Stored '' where the page printed no role (the column is NOT NULL): said as null.
    tipo: p.tipo || null,
    nome: p.nome,
    tipoPessoa: p.tipoPessoa,
    documento,
    fonte,
    advogados: p.advogados.map((a) => ({
      nome: a.nome,
      oab: a.oab ? `${a.oab.uf}${a.oab.numero}` : null,
      oabUf: a.oab?.uf ?? null,
      oabNumero: a.oab?.numero ?? null,
      fonte,
    })),
    // The instance whose page listed the party, where each degree's page gave its own (issue 52 item 3).
    ...(p.grau ? { grau: p.grau } : {}),
  };
}

/** The headline fields of a case: what lists and search results show. */
export function caseSummary(c: StoredCase) {
  const main = mainInstance(c);
  const court = courtBySigla(c.row.tribunal);
  return {
    numeroCnj: formatCnj(c.row.numero_cnj),
    tribunal: c.row.tribunal,
    segmento: court?.segmento ?? null,
    ufs: court?.ufs ?? [],
    classe: main?.classe ?? null,
    orgaoJulgador: main?.orgaoJulgador ?? null,
    grau: main?.grau ?? null,
    dataAjuizamento: c.row.data_ajuizamento,
    ultimaAtualizacao: c.row.atualizado_em,
    valor_causa: valorCausaObject(c.row.valor_causa_centavos),
  };
}

/** A case as covers and CPF/CNPJ search results give it: the headline, the process object and their twins. */
export function caseAnswer(c: StoredCase) {
  return CaseShape.present({ ...caseSummary(c), ...processObject(c) });
}

/**
 * The cover (spec §2.3): Tramita's fields and the process object integrators read (process-object.ts),
 * whose `valor_causa` object is the same at `data.valor_causa` and `data.fontes[0].capa.valor_causa`.
 * `falha`: why the parties did not come with this answer, when their source failed beside it (issue 43).
 */
/** What a case lacks until its enrichment is done (issue 51: said, not waited on). */
const PENDING = ['partes', 'advogados', 'valorCausa'] as const;

export function caseCover(c: StoredCase, falha: DetailsFailure | null = null) {
  const main = mainInstance(c);
  // Until the parties are stored, the enrichment job is due: where no provider or consultation answers, DJEN's addressees do (issue 32).
  const enrichment = c.row.detalhes_em ? 'CONCLUIDO' : 'AGENDADO';
  return {
    ...caseAnswer(c),
    numeroCnjDigitos: c.row.numero_cnj,
    valorCausaCentavos: c.row.valor_causa_centavos,
    assuntos: main?.assuntos ?? [],
    sistema: main?.sistema ?? null,
    formato: main?.formato ?? null,
    nivelSigilo: main?.nivelSigilo ?? 0,
    partes: c.partes?.map((p) => partyView(p, c.row.partes_fonte)) ?? null,
    instancias: c.instancias,
    quantidadeMovimentacoes: c.row.movimentos_total,
    ultimaMovimentacao: c.ultimaMovimentacao ? publicMovement(c.ultimaMovimentacao) : null,
    documentosPublicosDisponiveis: c.row.documentos_em !== null,
    // Parties and the case value come from the provider, the court's consultation or DJEN (`fonte`).
    enriquecimento: {
      status: enrichment,
      concluidoEm: c.row.detalhes_em,
      fonte: c.row.partes_fonte,
      falha,
      pendentes: enrichment === 'AGENDADO' ? PENDING : [],
    },
    // The court's own page, when its consultation answered (issue 31).
    consultaPublica: c.row.consulta ? (JSON.parse(c.row.consulta) as unknown) : null,
  };
}

export type CaseCover = ReturnType<typeof caseCover>;

/** Serialized covers, per stored case object: CaseStore hands out the same object while the case is unchanged. */
const coverTexts = new WeakMap<StoredCase, JsonText>();

/** The cover of a lookup as JSON text for the envelope, serialized once per version of the case (a failure's answer is its own). */
export function caseCoverJson(l: Pick<Lookup, 'stored' | 'detailsFailure'>): JsonText {
  if (l.detailsFailure) return new JsonText(JSON.stringify(caseCover(l.stored, l.detailsFailure)));
  let text = coverTexts.get(l.stored);
  if (!text) {
    text = new JsonText(JSON.stringify(caseCover(l.stored)));
    coverTexts.set(l.stored, text);
  }
  return text;
}
