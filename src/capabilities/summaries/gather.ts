/**
 * Gathers the facts of one stored case (facts.ts) and their fingerprint. The fingerprint leaves out
 * what changes without the case changing (the day of reference, when Tramita last read the source),
 * so it moves only when the case does: a new movement, party, document or publication.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { CaseStore } from '../processes/store.ts';
import {
  DECISION_TYPE,
  MAX_DECISION_CHARS,
  MAX_FACT_DECISIONS,
  MAX_FACT_MOVEMENTS,
  MAX_FACT_PUBLICATIONS,
  type CaseFacts,
  type FactDocument,
  type FactPublication,
} from './facts.ts';

export async function gatherFacts(db: Kysely<DB>, store: CaseStore, numeroCnj: string, today: string): Promise<CaseFacts | null> {
  const stored = await store.get(numeroCnj);
  if (!stored) return null;
  const [movimentos, documentos, publicacoes] = await Promise.all([
    store.movements(numeroCnj, MAX_FACT_MOVEMENTS),
    store.documents(numeroCnj),
    linkedPublications(db, numeroCnj),
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
      db,
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
async function withDecisionTexts(db: Kysely<DB>, numeroCnj: string, docs: (FactDocument & { id: string })[]): Promise<FactDocument[]> {
  const decisions = docs.filter((d) => DECISION_TYPE.test(d.tipo) || DECISION_TYPE.test(d.titulo)).slice(0, MAX_FACT_DECISIONS);
  const texts =
    decisions.length === 0
      ? []
      : await db
          .selectFrom('case_document_files')
          .select(['documento_id', 'texto', 'assinante'])
          .where('numero_cnj', '=', numeroCnj)
          .where(
            'documento_id',
            'in',
            decisions.map((d) => d.id),
          )
          .where('formato', '=', 'html')
          .execute();
  const byId = new Map(texts.map((t) => [t.documento_id, t]));
  return docs.map(({ id, ...d }) => {
    const held = byId.get(id);
    return held?.texto ? { ...d, texto: held.texto.slice(0, MAX_DECISION_CHARS), assinante: held.assinante } : d;
  });
}

/** Active gazette publications that name the case, newest first. */
async function linkedPublications(db: Kysely<DB>, numeroCnj: string): Promise<FactPublication[]> {
  const rows = await db
    .selectFrom('publications')
    .select(['id', 'data_disponibilizacao', 'tribunal', 'tipo_comunicacao', 'tipo_documento', 'orgao', 'texto'])
    .where('numero_cnj', '=', numeroCnj)
    .where('ativo', '=', 1)
    .orderBy('data_disponibilizacao', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_FACT_PUBLICATIONS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    data: r.data_disponibilizacao,
    tribunal: r.tribunal,
    tipoComunicacao: r.tipo_comunicacao,
    tipoDocumento: r.tipo_documento,
    orgao: r.orgao ? (JSON.parse(r.orgao) as { nome: string }).nome : null,
    texto: r.texto,
  }));
}

/** sha256 of the facts that describe the case (not of when they were read). */
export function factsFingerprint(facts: CaseFacts): string {
  const { dataReferencia: _day, consultadoEm: _read, ...caseOnly } = facts;
  return createHash('sha256').update(JSON.stringify(caseOnly)).digest('hex');
}
