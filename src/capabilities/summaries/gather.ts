/**
 * Gathers the facts of one stored case (facts.ts) and their fingerprint. The fingerprint leaves out
 * what changes without the case changing (the day of reference, when Tramita last read the source),
 * so it moves only when the case does: a new movement, party, document or publication.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { CaseParts } from '../processes/parts.ts';
import { linkedPublications } from './store.ts';
import {
  DECISION_TYPE,
  MAX_DECISION_CHARS,
  MAX_FACT_DECISIONS,
  MAX_FACT_MOVEMENTS,
  MAX_FACT_PUBLICATIONS,
  type CaseFacts,
  type FactDocument,
} from './facts.ts';

export async function gatherFacts(
  db: Kysely<DB>,
  { store, documents: held }: Pick<CaseParts, 'store' | 'documents'>,
  numeroCnj: string,
  today: string,
): Promise<CaseFacts | null> {
  const stored = await store.get(numeroCnj);
  if (!stored) return null;
  const [movimentos, documentos, publicacoes] = await Promise.all([
    store.movements(numeroCnj, MAX_FACT_MOVEMENTS),
    store.documents(numeroCnj),
    linkedPublications(db, numeroCnj, MAX_FACT_PUBLICATIONS),
  ]);
  const { row } = stored;
  return {
    numeroCnj,
    numeroCnjFormatado: formatCnj(numeroCnj),
    tribunal: row.tribunal,
    instancias: stored.instancias.map((i) => ({
      grau: i.grau,
      classe: i.classe,
      assuntos: i.assuntos,
      orgaoJulgador: i.orgaoJulgador ? { codigo: i.orgaoJulgador.codigo, nome: i.orgaoJulgador.nome } : null,
      sistema: i.sistema,
      dataAjuizamento: i.dataAjuizamento,
      nivelSigilo: i.nivelSigilo,
      quantidadeMovimentacoes: i.quantidadeMovimentacoes,
    })),
    valorCausaCentavos: row.valor_causa_centavos,
    partes: stored.partes?.map((p) => ({ polo: p.polo, tipo: p.tipo, nome: p.nome, tipoPessoa: p.tipoPessoa, advogados: p.advogados })) ?? null,
    movimentos: movimentos.map((m) => ({
      grau: m.grau,
      codigo: m.codigo,
      nome: m.nome,
      dataHora: m.dataHora,
      complementos: m.complementos,
      orgaoJulgador: m.orgaoJulgador?.nome ?? null,
    })),
    movimentosTotal: row.movimentos_total,
    publicacoes,
    documentos: await withDecisionTexts(
      held,
      numeroCnj,
      documentos.map((d) => ({ id: d.documento_id, titulo: d.titulo, tipo: d.tipo, dataJuntada: d.data_juntada })),
    ),
    atualizadoEm: row.atualizado_em,
    consultadoEm: row.consultado_em,
    dataReferencia: today,
  };
}

/**
 * The documents, with the texts of the newest decisions Tramita holds (issue 53: court documents
 * downloaded before, in case_document_files; none is asked of a court for a summary).
 */
async function withDecisionTexts(held: CaseParts['documents'], numeroCnj: string, docs: (FactDocument & { id: string })[]): Promise<FactDocument[]> {
  const decisions = docs.filter((d) => DECISION_TYPE.test(d.tipo) || DECISION_TYPE.test(d.titulo)).slice(0, MAX_FACT_DECISIONS);
  const texts =
    decisions.length === 0
      ? []
      : await held.heldTexts(
          numeroCnj,
          decisions.map((d) => d.id),
        );
  const byId = new Map(texts.map((t) => [t.documento_id, t]));
  return docs.map(({ id, ...d }) => {
    const text = byId.get(id);
    return text?.texto ? { ...d, texto: text.texto.slice(0, MAX_DECISION_CHARS), assinante: text.assinante } : d;
  });
}

/** sha256 of the facts that describe the case (not of when they were read). */
export function factsFingerprint(facts: CaseFacts): string {
  const { dataReferencia: _day, consultadoEm: _read, ...caseOnly } = facts;
  return createHash('sha256').update(JSON.stringify(caseOnly)).digest('hex');
}
