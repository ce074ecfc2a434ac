/**
 * The publication store: DJEN communications saved once (by DJEN id), the OABs each names (one row per
 * OAB and publication, the index every listing by lawyer reads) and the full-text index. Readers get
 * `StoredPublication`, the record as the connector gave it plus when it was ingested.
 */
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { Engine } from '../../platform/db/database.ts';
import type { DB, PublicationsTable } from '../../platform/db/schema.ts';
import { foldText, htmlToText } from '../../platform/text.ts';
import type { CodeName } from '../../platform/ports/case-metadata.ts';
import type { PublicationLawyer, PublicationParty, PublicationRecord } from '../../platform/ports/publications.ts';

type Db = Kysely<DB> | Transaction<DB>;

export interface StoredPublication extends Omit<PublicationRecord, 'raw'> {
  fonte: string;
  sandbox: boolean;
  ingeridoEm: string;
  /** `texto` as plain text, cleaned at ingest; null on a row ingested before migration 0022 (see plainText). */
  textoLimpo: string | null;
}

/**
 * A publication's text as plain text: the one cleaned at ingest, or, for a row stored before it was
 * kept (or a record not stored yet), `texto` converted now (htmlToText, linear in the text).
 */
export function plainText(p: { texto: string; textoLimpo?: string | null }): string {
  return p.textoLimpo ?? htmlToText(p.texto);
}

/** `SP123456` for an OAB as the port gives it. */
export function oabKey(oab: { uf: string; numero: string }): string {
  return `${oab.uf}${oab.numero}`;
}

export async function findPublication(db: Db, id: string): Promise<StoredPublication | undefined> {
  const row = await db.selectFrom('publications').selectAll().where('id', '=', id).executeTakeFirst();
  return row && storedPublication(row);
}

export function storedPublication(r: PublicationsTable): StoredPublication {
  return {
    id: r.id,
    hash: r.hash,
    numeroCnj: r.numero_cnj,
    tribunal: r.tribunal,
    dataDisponibilizacao: r.data_disponibilizacao,
    tipoComunicacao: r.tipo_comunicacao,
    tipoDocumento: r.tipo_documento,
    orgao: r.orgao === null ? null : (JSON.parse(r.orgao) as { id: string | null; nome: string }),
    classe: r.classe === null ? null : (JSON.parse(r.classe) as CodeName),
    meio: r.meio,
    numeroComunicacao: r.numero_comunicacao,
    texto: r.texto,
    textoLimpo: r.texto_limpo,
    link: r.link,
    ativo: r.ativo === 1,
    cancelamento: r.cancelamento === null ? null : (JSON.parse(r.cancelamento) as { data: string | null; motivo: string | null }),
    destinatarios: JSON.parse(r.destinatarios) as PublicationParty[],
    advogados: JSON.parse(r.advogados) as PublicationLawyer[],
    fonte: r.fonte,
    sandbox: r.sandbox === 1,
    ingeridoEm: r.ingerido_em,
  };
}

export function publicationRow(p: PublicationRecord, source: { name: string; sandbox: boolean }, now: string): PublicationsTable {
  return {
    id: p.id,
    hash: p.hash,
    fonte: source.name,
    sandbox: source.sandbox ? 1 : 0,
    tribunal: p.tribunal,
    data_disponibilizacao: p.dataDisponibilizacao,
    tipo_comunicacao: p.tipoComunicacao,
    tipo_documento: p.tipoDocumento,
    orgao: p.orgao && JSON.stringify(p.orgao),
    classe: p.classe && JSON.stringify(p.classe),
    meio: p.meio,
    numero_comunicacao: p.numeroComunicacao,
    numero_cnj: p.numeroCnj,
    texto: p.texto,
    // Cleaned once here, not on every read (issue 45): the HTML stays in `texto` for who asks for it.
    texto_limpo: htmlToText(p.texto),
    link: p.link,
    ativo: p.ativo ? 1 : 0,
    cancelamento: p.cancelamento && JSON.stringify(p.cancelamento),
    destinatarios: JSON.stringify(p.destinatarios),
    advogados: JSON.stringify(p.advogados),
    raw: JSON.stringify(p.raw),
    ingerido_em: now,
  };
}

/** The OAB index rows of one publication: each registration once, however often the text names it. */
export function lawyerRows(p: PublicationRecord): DB['publication_lawyers'][] {
  const seen = new Map<string, DB['publication_lawyers']>();
  for (const l of p.advogados) {
    if (!l.oab) continue;
    const oab = oabKey(l.oab);
    if (!seen.has(oab))
      seen.set(oab, { oab, data_disponibilizacao: p.dataDisponibilizacao, publicacao_id: p.id, numero_cnj: p.numeroCnj, tribunal: p.tribunal, nome: l.nome });
  }
  return [...seen.values()];
}

/**
 * What the full-text search sees of a publication: its numbers (CNJ; the communication's, an STF case's), court, parties, lawyers and text (HTML folded to
 * words).
 */
export function searchableText(p: PublicationRecord): string {
  return foldText(
    [
      p.numeroCnj,
      p.tribunal,
      p.numeroComunicacao,
      p.tipoComunicacao,
      p.tipoDocumento,
      p.classe?.nome,
      p.orgao?.nome,
      ...p.destinatarios.map((d) => d.nome),
      ...p.advogados.map((a) => a.nome),
      p.texto,
    ]
      .filter(Boolean)
      .join(' '),
  );
}

/** Full-text index of publications (FTS5 on SQLite, tsvector on PostgreSQL), fed with folded text. */
export class PublicationSearchIndex {
  readonly #engine: Engine;
  constructor(engine: Engine) {
    this.#engine = engine;
  }

  /** Indexes new publications; call in the transaction that inserts them. */
  async add(trx: Db, items: readonly { id: string; texto: string }[]): Promise<void> {
    if (items.length === 0) return;
    if (this.#engine === 'sqlite') {
      await trx
        .insertInto('publication_search')
        .values(items.map((i) => ({ publicacao_id: i.id, texto: i.texto })))
        .execute();
      return;
    }
    for (const i of items) {
      await sql`INSERT INTO publication_search (publicacao_id, texto, vetor) VALUES (${i.id}, ${i.texto}, to_tsvector('simple', ${i.texto}))
        ON CONFLICT (publicacao_id) DO NOTHING`.execute(trx);
    }
  }

  /** A subquery of the ids where every word occurs (as a prefix), to filter with `id IN (…)`. */
  idsMatching(tokens: readonly string[]) {
    if (this.#engine === 'sqlite') {
      const match = tokens.map((t) => `"${t}"*`).join(' ');
      return sql<string>`SELECT publicacao_id FROM publication_search WHERE publication_search MATCH ${match}`;
    }
    return sql<string>`SELECT publicacao_id FROM publication_search WHERE vetor @@ to_tsquery('simple', ${tokens.map((t) => `${t}:*`).join(' & ')})`;
  }

  /** Ids of the publications where every word occurs (as a prefix), best first. */
  async search(db: Db, tokens: readonly string[], limit: number, offset: number): Promise<string[]> {
    if (tokens.length === 0) return [];
    if (this.#engine === 'sqlite') {
      const match = tokens.map((t) => `"${t}"*`).join(' ');
      const { rows } = await sql<{ publicacao_id: string }>`SELECT publicacao_id FROM publication_search WHERE publication_search MATCH ${match}
        ORDER BY bm25(publication_search), publicacao_id LIMIT ${limit} OFFSET ${offset}`.execute(db);
      return rows.map((r) => r.publicacao_id);
    }
    const q = tokens.map((t) => `${t}:*`).join(' & ');
    const { rows } = await sql<{ publicacao_id: string }>`SELECT publicacao_id FROM publication_search, to_tsquery('simple', ${q}) q
      WHERE vetor @@ q ORDER BY ts_rank(vetor, q) DESC, publicacao_id LIMIT ${limit} OFFSET ${offset}`.execute(db);
    return rows.map((r) => r.publicacao_id);
  }
}

export interface DayCursor {
  data: string;
  id: string;
}

/** Rows after `b` in a newest-first (day, id) listing: an earlier day, or the same day and a lesser id. */
export function beforeDay<D, T extends keyof D>(
  eb: ExpressionBuilder<D, T>,
  columns: { day: 'l.data_disponibilizacao' | 'p.data_disponibilizacao' | 'data_disponibilizacao'; id: 'l.publicacao_id' | 'p.id' | 'id' },
  b: DayCursor,
) {
  // The columns are of the listing's own tables (`publications as p`, `publication_lawyers as l`), unknown to this signature.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const e = eb as ExpressionBuilder<any, any>;
  return e.or([e(columns.day, '<', b.data), e.and([e(columns.day, '=', b.data), e(columns.id, '<', b.id)])]);
}

/** Publications naming one of the OABs, newest first, optionally within [desde, ate] (yyyy-mm-dd), of one gazette and one communication type. */
export async function publicationsOfOab(
  db: Db,
  oabs: readonly string[],
  o: { desde?: string; ate?: string; fonte?: string; tipoComunicacao?: string; limit: number; before?: DayCursor },
): Promise<PublicationsTable[]> {
  let q = db.selectFrom('publication_lawyers as l').innerJoin('publications as p', 'p.id', 'l.publicacao_id').selectAll('p').where('l.oab', 'in', oabs);
  if (o.fonte) q = q.where('p.fonte', '=', o.fonte);
  if (o.tipoComunicacao) q = q.where('p.tipo_comunicacao', '=', o.tipoComunicacao);
  if (o.desde) q = q.where('l.data_disponibilizacao', '>=', o.desde);
  if (o.ate) q = q.where('l.data_disponibilizacao', '<=', o.ate);
  if (o.before) {
    const b = o.before;
    q = q.where((eb) => beforeDay(eb, { day: 'l.data_disponibilizacao', id: 'l.publicacao_id' }, b));
  }
  const rows = await q
    .orderBy('l.data_disponibilizacao', 'desc')
    .orderBy('l.publicacao_id', 'desc')
    .limit(o.limit * oabs.length)
    .execute();
  // Several OABs of one request may name the same publication: each once.
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id)).slice(0, o.limit);
}

/** Publications of one case, newest first. */
export async function publicationsOfCase(db: Db, numeroCnj: string, o: { limit: number; before?: DayCursor }): Promise<PublicationsTable[]> {
  let q = db.selectFrom('publications').selectAll().where('numero_cnj', '=', numeroCnj);
  if (o.before) {
    const b = o.before;
    q = q.where((eb) => beforeDay(eb, { day: 'data_disponibilizacao', id: 'id' }, b));
  }
  return q.orderBy('data_disponibilizacao', 'desc').orderBy('id', 'desc').limit(o.limit).execute();
}
