/**
 * The courts' public documents once read (issue 53): kept in `case_document_files`, so a second
 * download asks no court; bounded by TRAMITA_DOCUMENT_STORE_MAX_MB (after each write, the least
 * recently downloaded are evicted until the store fits; an evicted document is read from the court
 * again when asked). Served as the integrator asks (`formato`): `pdf` (the court's own, from its
 * "Gerar PDF", where it gave one; else one Tramita renders from the text; `x-documento-pdf` says which),
 * `html` (the body as the court wrote it, with its signature under it) or `texto`. A file the court
 * stores is served as it is, whatever the format asked.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { iso, type Clock } from '../../platform/clock.ts';
import type { CaseDocumentFilesTable, DB } from '../../platform/db/schema.ts';
import { brasiliaDateTime } from '../../platform/format.ts';
import type { CourtDocument } from '../../platform/ports/case-details.ts';

export type DocumentFormat = 'pdf' | 'html' | 'texto';

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

export interface ServedDocument {
  contentType: string;
  body: Buffer;
  extension: string;
  headers: Record<string, string>;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The signature lines under the body, as the court's page prints them. */
function signatureLines(doc: Extract<CourtDocument, { formato: 'html' }>): string[] {
  const lines: string[] = [];
  if (doc.assinante) lines.push(`Assinado eletronicamente por: ${doc.assinante}${doc.assinadoEm ? ` em ${brasiliaDateTime(doc.assinadoEm)}` : ''}`);
  if (doc.idDocumento) lines.push(`ID do documento: ${doc.idDocumento}`);
  if (doc.codigoValidacao) lines.push(`Código de validação: ${doc.codigoValidacao}`);
  return lines;
}

/** The document in the format asked; `meta` names it in the HTML's title and the PDF's metadata. */
export async function serveDocument(doc: CourtDocument, formato: DocumentFormat, meta: { titulo: string; numeroCnj: string }): Promise<ServedDocument> {
  if (doc.formato === 'arquivo') {
    const extension = doc.mimeType === 'application/pdf' ? '.pdf' : '';
    return { contentType: doc.mimeType, body: Buffer.from(doc.body), extension, headers: { 'x-documento-formato': 'arquivo' } };
  }
  const signature = {
    ...(doc.assinante ? { 'x-documento-assinante': encodeURIComponent(doc.assinante) } : {}),
    ...(doc.assinadoEm ? { 'x-documento-assinado-em': doc.assinadoEm } : {}),
    ...(doc.idDocumento ? { 'x-documento-id': doc.idDocumento } : {}),
  };
  if (formato === 'texto') {
    const text = [doc.texto, '', ...signatureLines(doc)].join('\n');
    return {
      contentType: 'text/plain; charset=utf-8',
      body: Buffer.from(`${text}\n`, 'utf8'),
      extension: '.txt',
      headers: { ...signature, 'x-documento-formato': 'texto' },
    };
  }
  if (formato === 'html') {
    const title = escapeHtml(`${meta.titulo} - ${meta.numeroCnj}`);
    const footer = signatureLines(doc)
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join('');
    const head = `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"><title>${title}</title></head>`;
    const page = `${head}<body><article class="documento">${doc.html}</article><footer class="assinatura">${footer}</footer></body></html>`;
    return {
      contentType: 'text/html; charset=utf-8',
      body: Buffer.from(page, 'utf8'),
      extension: '.html',
      headers: { ...signature, 'x-documento-formato': 'html' },
    };
  }
  if (doc.pdf)
    return { contentType: 'application/pdf', body: Buffer.from(doc.pdf), extension: '.pdf', headers: { ...signature, 'x-documento-pdf': 'tribunal' } };
  return {
    contentType: 'application/pdf',
    body: await textPdf(doc, meta),
    extension: '.pdf',
    headers: { ...signature, 'x-documento-pdf': 'tramita' },
  };
}

/** A PDF of the document's text and signature, rendered by Tramita where the court gave none (marked so on its last line). */
async function textPdf(doc: Extract<CourtDocument, { formato: 'html' }>, meta: { titulo: string; numeroCnj: string }): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 60,
    info: { Title: `${meta.titulo} - ${meta.numeroCnj}`, Creator: 'Tramita', CreationDate: doc.assinadoEm ? new Date(doc.assinadoEm) : new Date(0) },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => pdf.on('end', () => resolve(Buffer.concat(chunks))));
  pdf.font('Helvetica').fontSize(11);
  for (const line of doc.texto.split('\n')) pdf.text(line, { align: 'left' }).moveDown(0.3);
  pdf.moveDown(1).fontSize(9);
  for (const line of signatureLines(doc)) pdf.text(line);
  pdf.moveDown(1).text(`PDF gerado pelo Tramita a partir do texto publicado pelo tribunal (processo ${meta.numeroCnj}); o tribunal não forneceu o seu.`);
  pdf.end();
  return done;
}
