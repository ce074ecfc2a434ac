/**
 * The courts' public documents once read (issue 53; kept by document-files-store.ts), served as the
 * integrator asks (`formato`): `pdf` (the court's own, from its
 * "Gerar PDF", where it gave one; else one Tramita renders from the text; `x-documento-pdf` says which),
 * `html` (the body as the court wrote it, with its signature under it) or `texto`. A file the court
 * stores is served as it is, whatever the format asked.
 */
import { brasiliaDateTime } from '../../platform/format.ts';
import type { CourtDocument } from '../../platform/ports/case-details.ts';

export type DocumentFormat = 'pdf' | 'html' | 'texto';

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
