/**
 * The portal simulator: the case-details protocol (parties, lawyers, case value, public documents)
 * that Tramita reads through `TRAMITA_PORTAL_URL`. DataJud has none of these (datajud.md §1); this is
 * OUR protocol, and any provider an operator points TRAMITA_PORTAL_URL at must speak it.
 *
 * Protocol v1 (all paths below the provider's base URL; JSON is UTF-8; errors are `{"message": "…"}`):
 *
 *   GET /api/v1/processos/{cnj20}
 *     200 {
 *       "numeroProcesso": "00008323520184013202",          // 20 digits, no mask
 *       "valorCausa": "12345.67" | null,                     // reais as a decimal string, never a float
 *       "partes": [{
 *         "polo": "ATIVO" | "PASSIVO" | "OUTROS",
 *         "tipo": "AUTOR" | "RÉU" | "EXEQUENTE" | …,
 *         "nome": "…",
 *         "tipoPessoa": "FISICA" | "JURIDICA",
 *         "documento": "12345678909" | "12ABC34501DE35" | null,   // CPF/CNPJ bare (alphanumeric CNPJ upper-case); null when hidden
 *         "advogados": [{ "nome": "…", "oab": "SP123456" | null }]
 *       }],
 *       "documentos": [{
 *         "id": "…",                                         // stable for the case
 *         "titulo": "…", "tipo": "Sentença" | …,
 *         "dataJuntada": "2024-03-01T14:00:00.000Z",
 *         "mimeType": "application/pdf",
 *         "tamanho": 1616                                    // exact byte length of the download
 *       }]
 *     }
 *     404 {"message": "processo não encontrado"}  (that is the "not found" answer; never a 200 with nulls)
 *     400 when {cnj20} is not 20 digits
 *
 *   GET /api/v1/partes/processos?documento=<CPF or CNPJ, punctuation ignored>
 *   GET /api/v1/partes/processos?nome=<text>            (accent/case-insensitive; every word must be in one party's name)
 *     200 {"processos": ["<cnj20>", …]}                  newest filing first, at most 1000; [] when none
 *     400 when neither or both parameters are given, or the value is empty
 *
 *   GET /api/v1/processos/{cnj20}/documentos/{id}
 *     200 the bytes, Content-Type = the document's mimeType, Content-Length = its `tamanho`
 *     404 {"message": "processo não encontrado" | "documento não encontrado"}
 *
 * Anything dated after the sandbox clock's now (cases, documents) does not exist yet.
 */
import type { SandboxDataset } from '../data/dataset.ts';
import type { Lawyer, Party, SandboxCase } from '../data/model.ts';
import { jsonResponse, type HandlerContext, type SimRequest, type SimResponse, type UpstreamHandler } from '../http.ts';
import { PdfStore } from './pdf.ts';

export interface PortalSimulatorOptions {
  dataset: SandboxDataset;
}

const message = (status: number, text: string) => jsonResponse(status, { message: text });
const CASE_NOT_FOUND = () => message(404, 'processo não encontrado');

/** Centavos → "12345.67" with exact integer arithmetic. */
export function centavosToReais(centavos: number): string {
  return `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`;
}

function lawyerView(l: Lawyer) {
  return { nome: l.nome, oab: l.oab ? `${l.oab.uf}${l.oab.numero}` : null };
}

function partyView(p: Party) {
  return {
    polo: p.polo,
    tipo: p.tipo,
    nome: p.person.nome,
    tipoPessoa: p.person.tipoPessoa,
    documento: p.person.documento,
    advogados: p.advogados.map(lawyerView),
  };
}

async function caseView(c: SandboxCase, now: number, pdfs: PdfStore) {
  const documentos = [];
  for (const d of c.documentos) {
    if (d.juntadaAt > now) continue;
    documentos.push({
      id: d.id,
      titulo: d.titulo,
      tipo: d.tipo,
      dataJuntada: new Date(d.juntadaAt).toISOString(),
      mimeType: d.mimeType,
      tamanho: await pdfs.size(c, d),
    });
  }
  return {
    numeroProcesso: c.numero,
    valorCausa: c.valorCausaCentavos === null ? null : centavosToReais(c.valorCausaCentavos),
    partes: c.partes.map(partyView),
    documentos,
  };
}

function lookup(req: SimRequest, ctx: HandlerContext, dataset: SandboxDataset): SimResponse {
  const documento = req.query.get('documento');
  const nome = req.query.get('nome');
  if ((documento === null) === (nome === null)) return message(400, 'informe exatamente um dos parâmetros documento ou nome');
  const value = (documento ?? nome)!.trim();
  if (value === '') return message(400, `o parâmetro ${documento !== null ? 'documento' : 'nome'} está vazio`);
  const cases = documento !== null ? dataset.casesByDocument(value, ctx.now) : dataset.casesByName(value, ctx.now);
  return jsonResponse(200, { processos: cases.map((c) => c.numero) });
}

async function download(dataset: SandboxDataset, pdfs: PdfStore, numero: string, id: string, now: number): Promise<SimResponse> {
  const c = dataset.visibleCase(numero, now);
  if (!c) return CASE_NOT_FOUND();
  const doc = c.documentos.find((d) => d.id === id && d.juntadaAt <= now);
  if (!doc) return message(404, 'documento não encontrado');
  const body = await pdfs.bytes(c, doc);
  return { status: 200, headers: { 'content-type': doc.mimeType, 'content-disposition': `inline; filename="${doc.id}.pdf"` }, body };
}

export function portalHandler(options: PortalSimulatorOptions): UpstreamHandler {
  const { dataset } = options;
  const pdfs = new PdfStore();
  return async (req, ctx) => {
    if (req.method !== 'GET') return message(405, 'método não permitido');
    if (req.path === '/api/v1/partes/processos') return lookup(req, ctx, dataset);
    const m = /^\/api\/v1\/processos\/([^/]+)(?:\/documentos\/([^/]+))?\/?$/.exec(req.path);
    if (!m) return message(404, 'rota não encontrada');
    const numero = decodeURIComponent(m[1]);
    if (!/^\d{20}$/.test(numero)) return message(400, 'número de processo inválido: esperados 20 dígitos sem máscara');
    if (m[2] !== undefined) return download(dataset, pdfs, numero, decodeURIComponent(m[2]), ctx.now);
    const c = dataset.visibleCase(numero, ctx.now);
    return c ? jsonResponse(200, await caseView(c, ctx.now, pdfs)) : CASE_NOT_FOUND();
  };
}
