/**
 * Case endpoints by CNJ number (spec §4.2, §4.3): cover, PDF, movements, refresh and its status,
 * public documents and their download. Lookups that may reach DataJud (10–40 s) are async-eligible.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { toBrl } from '../../platform/billing/prices.ts';
import { iso } from '../../platform/clock.ts';
import type { CaseDocumentsTable, CaseRefreshesTable } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { absoluteUrl } from '../../platform/http/absolute-url.ts';
import { listSchema } from '../../platform/http/list.ts';
import { listPage } from '../../platform/http/listing.ts';
import { parsePrefer } from '../../platform/http/prefer.ts';
import { defineRoute, type RouteRequest } from '../../platform/http/route.ts';
import { formatCnj, parseCnjWithCourt } from '../../platform/identifiers/cnj.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from './parts.ts';
import { coverPdf } from './pdf.ts';
import { caseCover, caseCoverJson, sourceMeta } from './present.ts';
import { latestRefresh, REFRESH_QUERY_TYPE, requestRefresh } from './refresh.ts';
import type { DetailsMode, Lookup } from './lookup.ts';
import {
  CnjParams,
  Cover,
  DocumentDownloadQuery,
  DocumentParams,
  DocumentsQuery,
  Movement,
  RefreshBody,
  MovementsQuery,
  PublicDocument,
  PublicDocumentShape,
  Refresh,
} from './schemas.ts';
import { publicMovement } from './movements.ts';
import { serveDocument } from './court-documents.ts';
import { restrictDocument } from './documents-store.ts';
import type { CaseConsultaRecord, CourtDocument } from '../../platform/ports/case-details.ts';
import { SourceError } from '../../platform/ports/source-error.ts';

const REFRESH_MESSAGE: Record<string, string> = {
  PENDENTE: 'Atualização solicitada: o processo será consultado de novo nas fontes. Acompanhe em statusUrl; a cobrança acontece só quando ela terminar.',
  PROCESSANDO: 'Uma atualização deste processo já está em andamento: acompanhe em statusUrl. Nada foi cobrado por este pedido.',
};

const TAG = 'Processos';

/**
 * A case lookup waits, within the window, for the parties, lawyers, value and movement texts of the
 * case-details sources, asked beside DataJud (issue 43); `Prefer: return=minimal` answers DataJud's
 * fields at once and leaves them to the enrichment job.
 */
function detailsMode(req: RouteRequest<{ params: typeof CnjParams }>): { details: DetailsMode; headers?: Record<string, string> } {
  return parsePrefer(req).minimal ? { details: 'background', headers: { 'preference-applied': 'return=minimal' } } : { details: 'wait' };
}

const COMPLETE_DOC =
  "A first lookup asks DataJud and the case-details sources (the provider, the court's consultation, DJEN's addressees) at the same time and answers " +
  'when both are in, within the synchronous window (past it, 202 and the status URL, whose answer is complete). A details source that fails never ' +
  "fails the lookup: DataJud's fields are answered, `data.enriquecimento.falha` says why the parties are missing, and they are asked again in the " +
  "background. `Prefer: return=minimal` answers DataJud's fields at once and fills the parties in the background.";

export function caseRoutes(app: FastifyInstance, s: Services, m: CaseParts): void {
  const cnjOf = (req: RouteRequest<{ params: typeof CnjParams }>) => parseCnjWithCourt(req.params.cnj, 'cnj');

  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/cnj/:cnj',
    meta: {
      class: 'lookup',
      auth: true,
      charge: 'processo.capa',
      async: true,
      tag: TAG,
      summary: 'Case cover by CNJ number',
      description:
        'The number is normalized and validated. Answered from the store when fresh (TRAMITA_CASE_FRESH_MINUTES), else from DataJud. ' +
        COMPLETE_DOC +
        ' `data.valor_causa` (and its copy `data.fontes[0].capa.valor_causa`) is null until a case-details source gave it. ' +
        '`meta.source` says where the answer came from and whether it is sandbox data.',
    },
    schema: { params: CnjParams, data: Cover },
    handler: async (req) => {
      const { details, headers } = detailsMode(req);
      const lookup = await m.service.lookup(cnjOf(req), { details });
      return { data: caseCoverJson(lookup), meta: sourceMeta(lookup), headers };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/cnj/:cnj/pdf',
    meta: {
      class: 'lookup',
      auth: true,
      charge: 'processo.pdf',
      async: true,
      tag: TAG,
      summary: 'Case cover as a PDF',
      binary: 'application/pdf',
      description:
        'The cover of `GET /v1/processos/cnj/{cnj}` as `application/pdf`, with its parties as the cover gets them (`Prefer: return=minimal` too); the ' +
        'charge is in the `x-credits-*` headers.',
    },
    schema: { params: CnjParams },
    handler: async (req) => {
      const lookup = await m.service.lookup(cnjOf(req), { details: detailsMode(req).details });
      const cover = caseCover(lookup.stored, lookup.detailsFailure ?? null);
      return {
        file: { contentType: 'application/pdf', body: await coverPdf(cover, iso(s.clock.now())), filename: `processo-${lookup.stored.row.numero_cnj}.pdf` },
      };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/cnj/:cnj/movimentacoes',
    meta: {
      class: 'lookup',
      auth: true,
      charge: 'processo.movimentacoes',
      async: true,
      tag: TAG,
      summary: 'Movements of a case, newest first',
      description:
        "Every instance's movements, deduplicated, newest first (ties by id). Cursor pagination: `limit` 1–100 (default 20), `cursor` = " +
        "`meta.pagination.nextCursor`. Each page is one charge. A first lookup waits for the court's texts as the cover does (`Prefer: return=minimal` too).",
    },
    schema: { params: CnjParams, querystring: MovementsQuery, data: listSchema('movimentacoes', Movement, { numeroCnj: Type.String() }) },
    handler: async (req) => {
      const cnj = cnjOf(req);
      const { details, headers } = detailsMode(req);
      // The lookup runs once the page asked for is known valid (a bad cursor is a 400 before any source is asked).
      let lookup: Lookup | undefined;
      const { data, pagination } = await listPage(req, s.config, {
        listing: `movimentacoes:${cnj.digits}`,
        keys: ['dataHora', 'key'],
        read: async (limit, before?: { dataHora: string; key: string }) => {
          lookup = await m.service.lookup(cnj, { details });
          return m.store.movements(cnj.digits, limit, before);
        },
        position: (r) => ({ dataHora: r.dataHora, key: r.key }),
        name: 'movimentacoes',
        view: (items) => items.map(publicMovement),
        // Known once `read` has run: listPage asks after it.
        total: () => lookup?.stored.row.movimentos_total,
      });
      const total = lookup!.stored.row.movimentos_total;
      return { data: { numeroCnj: cnj.masked, ...data }, meta: { pagination: { ...pagination, total }, ...sourceMeta(lookup!) }, headers };
    },
  });

  const refreshView = (r: CaseRefreshesTable) => ({
    id: r.id,
    numeroCnj: formatCnj(r.numero_cnj),
    status: r.status,
    solicitadoEm: r.solicitado_em,
    iniciadoEm: r.iniciado_em,
    concluidoEm: r.concluido_em,
    novasMovimentacoes: r.novas_movimentacoes,
    erro: r.erro_codigo ? { code: r.erro_codigo, message: r.erro_mensagem } : null,
    preco: toBrl(r.preco_centavos),
    statusUrl: absoluteUrl(s.config, `/v1/processos/cnj/${r.numero_cnj}/status-atualizacao`),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/processos/cnj/:cnj/solicitar-atualizacao',
    meta: {
      class: 'async',
      auth: true,
      charge: REFRESH_QUERY_TYPE,
      chargeWay: 'deferred',
      tag: TAG,
      summary: 'Request an asynchronous refresh of a case',
      description:
        "Asks DataJud and the case-details sources again, in the background: the court's own page where its consultation is enabled (then a case only " +
        'that page knows can be refreshed too), the provider, DJEN. New movements from either DataJud or the page are announced as `nova_movimentacao`; ' +
        "the parties' sources failing never fails the refresh (they are retried on their own). Charged once, when the refresh completes (a failed " +
        'refresh is free); asking again while one is live returns it, uncharged. Follow `data.statusUrl`. Public documents become listable once ' +
        'it completes. ' +
        'No body is needed; `{"documentos_publicos": false}`, which integrators of the commercial service send, is accepted: the public documents list is ' +
        'refreshed either way, at no extra cost.',
    },
    schema: { params: CnjParams, body: RefreshBody, data: Refresh },
    handler: async (req, op) => {
      const cnj = cnjOf(req);
      // A court without a DataJud index is refreshed from its own page where its consultation is enabled.
      if (!cnj.court.datajudAlias && !s.sources.details?.covers?.(cnj.digits))
        throw new ApiError('COURT_NOT_COVERED', `${cnj.court.sigla} has no DataJud index, so its cases cannot be refreshed.`, { tribunal: cnj.court.sigla });
      const { refresh } = await requestRefresh(m, {
        accountId: req.auth!.account.id,
        numeroCnj: cnj.digits,
        requestId: req.id,
        priceCentavos: op.priceCentavos,
      });
      return { data: { ...refreshView(refresh), message: REFRESH_MESSAGE[refresh.status] ?? REFRESH_MESSAGE.PENDENTE } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/cnj/:cnj/status-atualizacao',
    meta: {
      class: 'lookup',
      auth: true,
      tag: TAG,
      summary: "Status of the account's latest refresh of a case",
      description: 'Free. `PENDENTE` → `PROCESSANDO` → `CONCLUIDA` or `ERRO`. 404 when the account never asked for one.',
    },
    schema: { params: CnjParams, data: Refresh },
    handler: async (req) => {
      const cnj = cnjOf(req);
      const refresh = await latestRefresh(s.db, req.auth!.account.id, cnj.digits);
      if (!refresh) throw new ApiError('NOT_FOUND', `No refresh of ${cnj.masked} was requested with this account.`);
      return { data: refreshView(refresh) };
    },
  });

  const documentView = (digits: string, d: CaseDocumentsTable) =>
    PublicDocumentShape.present({
      id: d.documento_id,
      titulo: d.titulo,
      tipo: d.tipo,
      dataJuntada: d.data_juntada,
      mimeType: d.mime_type,
      tamanhoBytes: d.tamanho_bytes,
      downloadUrl: absoluteUrl(s.config, `/v1/processos/cnj/${digits}/documentos/${encodeURIComponent(d.documento_id)}/download`),
      fonte: d.fonte ?? s.sources.details?.info.name ?? 'provedor',
      origem: d.origem as 'provedor' | 'visualizador' | 'arquivo',
      publico: d.restricao === null,
      restricao: d.restricao,
    });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/cnj/:cnj/documentos-publicos',
    meta: {
      class: 'lookup',
      auth: true,
      charge: 'processo.documentos_publicos',
      tag: TAG,
      summary: 'Public documents of a case',
      description: 'Listed only after a completed refresh (spec §4.3); before it, 422 REFRESH_REQUIRED. An empty list is free.',
    },
    schema: { params: CnjParams, querystring: DocumentsQuery, data: listSchema('documentos', PublicDocument, { numeroCnj: Type.String() }) },
    handler: async (req) => {
      const cnj = cnjOf(req);
      const stored = await m.store.get(cnj.digits);
      if (!stored?.row.documentos_em)
        throw new ApiError(
          'REFRESH_REQUIRED',
          `Request a refresh of ${cnj.masked} (POST /v1/processos/cnj/${cnj.digits}/solicitar-atualizacao) and wait for it to complete.`,
        );
      const all = await m.store.documents(cnj.digits);
      const { data, pagination, rows } = await listPage(req, s.config, {
        listing: `documentos:${cnj.digits}`,
        keys: ['i'],
        // Positions in the whole list (it is read whole: a refresh lists at most a court's grid).
        read: async (limit, after?: { i: number }) => {
          const from = after?.i ?? 0;
          return all.slice(from, from + limit).map((d, k) => ({ d, i: from + k }));
        },
        position: (last) => ({ i: last.i + 1 }),
        name: 'documentos',
        view: (items) => items.map(({ d }) => documentView(cnj.digits, d)),
        total: all.length,
      });
      // A court's grid read in part (more pages than read, a page that failed) says so (issue 53).
      const grid = stored.row.consulta ? (JSON.parse(stored.row.consulta) as CaseConsultaRecord).listas?.documentos : undefined;
      return {
        data: { numeroCnj: cnj.masked, ...data },
        meta: {
          documentosEm: stored.row.documentos_em,
          pagination: { ...pagination, total: all.length },
          ...(grid ? { documentosTribunal: { listados: grid.listados, lidos: grid.lidos, parcial: grid.parcial === true } } : {}),
        },
        empty: rows.length === 0,
      };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/cnj/:cnj/documentos/:documentId/download',
    meta: {
      class: 'download',
      auth: true,
      charge: 'processo.documento_download',
      async: true,
      tag: TAG,
      summary: 'Download a public document',
      binary: '*/*',
      description:
        "Streams the file with its own content type; an id the case does not list is 404 DOCUMENT_NOT_FOUND. A court's document (`origem` " +
        "`visualizador`) is read on the court's page once, kept (TRAMITA_DOCUMENT_STORE_MAX_MB) and served from the store afterwards, as `formato` " +
        'asks: `pdf` (default), `html` or `texto`; `x-documento-assinante` (URI-encoded), `x-documento-assinado-em` and `x-documento-id` carry its ' +
        'signature. A document the court opens only behind a login is 422 DOCUMENT_NOT_PUBLIC, never read. Each download is charged; a failure is not.',
    },
    schema: { params: DocumentParams, querystring: DocumentDownloadQuery },
    handler: async (req) => {
      const cnj = parseCnjWithCourt(req.params.cnj, 'cnj');
      const doc = await m.store.document(cnj.digits, req.params.documentId);
      if (!doc) throw new ApiError('DOCUMENT_NOT_FOUND', `${cnj.masked} lists no public document "${req.params.documentId}".`);
      if (doc.restricao !== null) throw new ApiError('DOCUMENT_NOT_PUBLIC', `${cnj.masked}: ${doc.restricao}`);
      if (doc.origem === 'provedor') {
        const file = await m.service.details().downloadDocument(cnj.digits, doc.documento_id);
        if (!file) throw new ApiError('DOCUMENT_NOT_FOUND', `The source no longer has document "${doc.documento_id}" of ${cnj.masked}.`);
        const extension = file.mimeType === 'application/pdf' ? '.pdf' : '';
        return { file: { contentType: file.mimeType, body: Buffer.from(file.body), filename: `${cnj.digits}-${doc.documento_id}${extension}` } };
      }
      const court = await courtDocument(m, cnj.digits, doc.documento_id, cnj.masked);
      const served = await serveDocument(court, req.query.formato ?? 'pdf', { titulo: doc.titulo, numeroCnj: cnj.masked });
      return {
        file: { contentType: served.contentType, body: served.body, filename: `${cnj.digits}-${doc.documento_id}${served.extension}`, headers: served.headers },
      };
    },
  });
}

/**
 * A court's document: from the store when read before (no court asked), else read on the court's page
 * and kept. A login where the page promised a public document marks it restricted in the list (the
 * next refresh reads the grid again), and is uncharged.
 */
async function courtDocument(m: CaseParts, numeroCnj: string, documentoId: string, masked: string): Promise<CourtDocument> {
  const kept = await m.documents.get(numeroCnj, documentoId);
  if (kept) return kept;
  let read: CourtDocument | null;
  try {
    read = (await m.service.details().readDocument?.(numeroCnj, documentoId)) ?? null;
  } catch (err) {
    if (!(err instanceof SourceError) || err.failure !== 'login') throw err;
    const restricao = 'O tribunal pediu login para abrir este documento; o Tramita não o lê.';
    await restrictDocument(m.db, numeroCnj, documentoId, restricao);
    throw new ApiError('DOCUMENT_NOT_PUBLIC', `${masked}: ${restricao}`);
  }
  if (!read) throw new ApiError('DOCUMENT_NOT_FOUND', `The court's page of ${masked} no longer lists document "${documentoId}".`);
  await m.documents.put(numeroCnj, documentoId, read);
  return read;
}
