/**
 * The courts' public documents once read (issue 53): kept in `case_document_files`, so a second
 * download asks no court; bounded by TRAMITA_DOCUMENT_STORE_MAX_MB (after each write, the least
 * recently downloaded are evicted until the store fits; an evicted document is read from the court
 * again when asked). How they are served is court-documents.ts.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { iso, type Clock } from '../../platform/clock.ts';
import type { CaseDocumentFilesTable, DB } from '../../platform/db/schema.ts';
import type { CourtDocument } from '../../platform/ports/case-details.ts';

export class CourtDocumentStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  readonly #maxBytes: number;
  constructor(db: Kysely<DB>, clock: Clock, maxBytes: number) {
    this.#db = db;
    this.#clock = clock;
    this.#maxBytes = maxBytes;
  }

  /** The document as read before, marked as just used; null when never read or evicted. */
  async get(numeroCnj: string, documentoId: string): Promise<CourtDocument | null> {
    const row = await this.#db
      .selectFrom('case_document_files')
      .selectAll()
      .where('numero_cnj', '=', numeroCnj)
      .where('documento_id', '=', documentoId)
      .executeTakeFirst();
    if (!row) return null;
    await this.#db
      .updateTable('case_document_files')
      .set({ usado_em: iso(this.#clock.now()) })
      .where('numero_cnj', '=', numeroCnj)
      .where('documento_id', '=', documentoId)
      .execute();
    return documentOfRow(row);
  }

  /** Keeps a document just read (replacing an older copy), then evicts the least recently used past the bound. */
  async put(numeroCnj: string, documentoId: string, doc: CourtDocument): Promise<void> {
    const now = iso(this.#clock.now());
    const row = rowOf(numeroCnj, documentoId, doc, now);
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom('case_document_files').where('numero_cnj', '=', numeroCnj).where('documento_id', '=', documentoId).execute();
      await trx.insertInto('case_document_files').values(row).execute();
    });
    await this.#evict();
  }

  /** The texts (and signers) held of these documents of the case: the court's HTML ones read before; none is asked of a court. */
  heldTexts(numeroCnj: string, documentoIds: string[]): Promise<Pick<CaseDocumentFilesTable, 'documento_id' | 'texto' | 'assinante'>[]> {
    return this.#db
      .selectFrom('case_document_files')
      .select(['documento_id', 'texto', 'assinante'])
      .where('numero_cnj', '=', numeroCnj)
      .where('documento_id', 'in', documentoIds)
      .where('formato', '=', 'html')
      .execute();
  }

  /** Oldest first, a batch at a time, until the store fits its bound (the newest document may itself be evicted when larger than it). */
  async #evict(): Promise<void> {
    for (;;) {
      const total = await this.#db.selectFrom('case_document_files').select(sql<number | null>`sum(tamanho_bytes)`.as('bytes')).executeTakeFirst();
      let over = Number(total?.bytes ?? 0) - this.#maxBytes;
      if (over <= 0) return;
      const oldest = await this.#db
        .selectFrom('case_document_files')
        .select(['numero_cnj', 'documento_id', 'tamanho_bytes'])
        .orderBy('usado_em')
        .orderBy('numero_cnj')
        .orderBy('documento_id')
        .limit(50)
        .execute();
      if (oldest.length === 0) return;
      for (const o of oldest) {
        await this.#db.deleteFrom('case_document_files').where('numero_cnj', '=', o.numero_cnj).where('documento_id', '=', o.documento_id).execute();
        over -= o.tamanho_bytes;
        if (over <= 0) return;
      }
    }
  }
}

function rowOf(numeroCnj: string, documentoId: string, doc: CourtDocument, now: string): CaseDocumentFilesTable {
  const base = { numero_cnj: numeroCnj, documento_id: documentoId, armazenado_em: now, usado_em: now };
  if (doc.formato === 'arquivo')
    return {
      ...base,
      formato: 'arquivo',
      html: null,
      texto: null,
      titulo: null,
      assinante: null,
      assinado_em: null,
      id_documento: null,
      codigo_validacao: null,
      pdf_base64: null,
      arquivo_base64: Buffer.from(doc.body).toString('base64'),
      mime_type: doc.mimeType,
      nome: doc.nome,
      tamanho_bytes: doc.body.byteLength,
    };
  return {
    ...base,
    formato: 'html',
    html: doc.html,
    texto: doc.texto,
    titulo: doc.titulo,
    assinante: doc.assinante,
    assinado_em: doc.assinadoEm,
    id_documento: doc.idDocumento,
    codigo_validacao: doc.codigoValidacao,
    pdf_base64: doc.pdf ? Buffer.from(doc.pdf).toString('base64') : null,
    arquivo_base64: null,
    mime_type: 'text/html',
    nome: null,
    tamanho_bytes: Buffer.byteLength(doc.html) + Buffer.byteLength(doc.texto) + (doc.pdf?.byteLength ?? 0),
  };
}

function documentOfRow(r: CaseDocumentFilesTable): CourtDocument {
  if (r.formato === 'arquivo')
    return { formato: 'arquivo', mimeType: r.mime_type ?? 'application/octet-stream', nome: r.nome, body: Buffer.from(r.arquivo_base64 ?? '', 'base64') };
  return {
    formato: 'html',
    html: r.html ?? '',
    texto: r.texto ?? '',
    titulo: r.titulo,
    assinante: r.assinante,
    assinadoEm: r.assinado_em,
    idDocumento: r.id_documento,
    codigoValidacao: r.codigo_validacao,
    pdf: r.pdf_base64 ? Buffer.from(r.pdf_base64, 'base64') : null,
  };
}
