/**
 * The public documents of a PJe case page (issue 53; reference/upstream/real/documents/README.md):
 * the documents grid read page after page on the session that rendered the detail page, and one
 * document opened on that session: the viewer (`documentoSemLoginHTML.seam`) with the court's own PDF
 * asked through its "Gerar PDF" form, or a file the court stores, as it is. The links the page prints
 * point at the court's public host; they are followed on the base URL this deployment reads the court
 * at (its context path and below), never on another host. A document the court opens only behind a
 * login is never followed (the session throws `login` on the redirect to it).
 */
import type { CourtDocument, PageListCount } from '../../../platform/ports/case-details.ts';
import { SourceError } from '../../../platform/ports/source-error.ts';
import type { Anomalies } from '../anomalies.ts';
import type { ConsultaPage, ConsultaSession } from '../http.ts';
import type { ConsultaDocument } from '../record.ts';
import { parsePjeDocuments, pjeDocumentsPageBody, type PjeDocumentRow } from './documents.ts';
import { PjeViewerError, parsePjeViewer, pjeViewerPdfBody } from './viewer.ts';

/** Grid pages read at most per case (about 15 rows each): past them the list is said to be partial. */
export const DOCUMENT_PAGES_MAX = 10;

const A4J_POST = { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' };

export interface DocumentsGridRead {
  rows: PjeDocumentRow[];
  lista: PageListCount & { parcial?: boolean };
}

/**
 * The grid of the detail page `detail`; with `allPages`, the slider's other pages too, each one A4J
 * request on the same session, at most DOCUMENT_PAGES_MAX pages. A page that fails after the first
 * ends the reading: the list read so far is kept and said to be partial. Null when the page has no grid.
 */
export async function readDocumentsGrid(
  session: ConsultaSession,
  detail: ConsultaPage,
  opts: { allPages: boolean; signal?: AbortSignal; anomalies: Anomalies },
): Promise<DocumentsGridRead | null> {
  const first = parsePjeDocuments(detail.text, opts.anomalies);
  if (!first) return null;
  const rows = [...first.rows];
  let pager = first.pager;
  let complete = !pager || pager.paginas <= 1;
  if (opts.allPages && pager) {
    const last = Math.min(pager.paginas, DOCUMENT_PAGES_MAX);
    complete = pager.paginas <= DOCUMENT_PAGES_MAX;
    for (let n = 2; n <= last; n++) {
      let answer: ConsultaPage;
      try {
        answer = await session.post(new URL(pager.action, detail.url).href, new URLSearchParams(pjeDocumentsPageBody(pager, n)), {
          signal: opts.signal,
          headers: { ...A4J_POST, referer: detail.url },
        });
      } catch (err) {
        if (opts.signal?.aborted || !(err instanceof SourceError)) throw err;
        complete = false;
        break;
      }
      const grid = answer.status === 200 ? parsePjeDocuments(answer.text, opts.anomalies) : null;
      if (!grid) {
        complete = false;
        break;
      }
      for (const row of grid.rows) if (!rows.some((r) => r.id === row.id)) rows.push(row);
      pager = grid.pager ?? pager;
    }
  }
  const partial = !complete || (first.listados !== null && rows.length < first.listados);
  return { rows, lista: { listados: first.listados, lidos: rows.length, ...(partial ? { parcial: true } : {}) } };
}

/** A grid row as the case record keeps it (never its link: the token in it is tied to this session). */
export function documentOfRow(row: PjeDocumentRow): ConsultaDocument {
  return {
    id: row.id,
    titulo: row.titulo,
    tipo: row.tipo,
    juntadoEm: row.juntadoEm,
    origem: row.formato === 'html' ? 'visualizador' : row.formato === 'binario' ? 'arquivo' : null,
    tamanhoBytes: row.arquivo?.tamanhoBytes ?? null,
    arquivo: row.arquivo?.nome ?? null,
    pdf: row.arquivo ? row.arquivo.pdf || row.arquivo.nome.toLowerCase().endsWith('.pdf') : false,
  };
}

/** A link the page printed, on this deployment's base URL: its path from `/ConsultaPublica/` on, and its query. */
export function onBase(link: string, base: string, pageUrl: string): string {
  const url = new URL(link, pageUrl);
  const at = url.pathname.indexOf('/ConsultaPublica/');
  return at === -1 ? new URL(`${url.pathname}${url.search}`, pageUrl).href : `${base}${url.pathname.slice(at)}${url.search}`;
}

/**
 * One row's document on the session that rendered its page. `refused` when the court answered
 * something else than the document (an expired or refused token: a JSF error page, the viewer
 * without its sheet): the caller reads the page again, once.
 */
export async function openDocument(
  session: ConsultaSession,
  row: PjeDocumentRow,
  at: { base: string; detailUrl: string; signal?: AbortSignal },
): Promise<CourtDocument | 'refused'> {
  const { signal } = at;
  if (row.formato === 'restrito' || !row.link) throw session.fail('login', 'the court opens this document only behind a login; Tramita never passes one');
  const url = onBase(row.link, at.base, at.detailUrl);
  const answer = await session.get(url, { signal, headers: { referer: at.detailUrl } });
  if (answer.status !== 200) return 'refused';
  if (row.formato === 'binario') {
    const body = answer.body ?? Buffer.from(answer.text, 'utf8');
    const type = String(answer.headers['content-type'] ?? 'application/octet-stream')
      .split(';')[0]!
      .trim();
    // A page where the file should be (a JSF error page) is not the file.
    if (type === 'text/html' && !isPdf(body)) return 'refused';
    return { formato: 'arquivo', mimeType: isPdf(body) ? 'application/pdf' : type, nome: row.arquivo?.nome ?? null, body };
  }
  let doc: ReturnType<typeof parsePjeViewer>;
  try {
    doc = parsePjeViewer(answer.text);
  } catch (err) {
    if (err instanceof PjeViewerError) return 'refused';
    throw err;
  }
  // Another document than the row's (its token no longer this one's): refused, like an expired token.
  if (doc.idDocumento !== null && doc.idDocumento !== row.id) return 'refused';
  return {
    formato: 'html',
    html: doc.html,
    texto: doc.texto,
    titulo: doc.titulo,
    assinante: doc.assinante,
    assinadoEm: doc.assinadoEm,
    idDocumento: doc.idDocumento,
    codigoValidacao: doc.codigoValidacao,
    pdf: doc.pdf ? await courtPdf(session, doc.pdf, answer.url, signal) : null,
  };
}

/**
 * The court's own PDF of a viewer document ("Gerar PDF": the form's plain POST). Some hosts answer it
 * with an error page (TRF5: `errorUnexpected.seam`, README §4): then null, and Tramita renders its own.
 */
async function courtPdf(
  session: ConsultaSession,
  form: NonNullable<ReturnType<typeof parsePjeViewer>['pdf']>,
  viewerUrl: string,
  signal?: AbortSignal,
): Promise<Uint8Array | null> {
  try {
    const answer = await session.post(new URL(form.action, viewerUrl).href, new URLSearchParams(pjeViewerPdfBody(form)), {
      signal,
      headers: { referer: viewerUrl },
    });
    return answer.status === 200 && answer.body && isPdf(answer.body) ? answer.body : null;
  } catch (err) {
    if (signal?.aborted || !(err instanceof SourceError)) throw err;
    return null;
  }
}

function isPdf(body: Uint8Array): boolean {
  return body.length > 5 && body[0] === 0x25 && body[1] === 0x50 && body[2] === 0x44 && body[3] === 0x46 && body[4] === 0x2d;
}
