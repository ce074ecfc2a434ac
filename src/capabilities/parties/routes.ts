/**
 * Processes of a party (spec §4.2): `GET /v1/processos?cpf_cnpj=` lists them by page, and
 * `GET /v1/envolvidos/resumo` sums them up. The case-details provider says where a CPF/CNPJ or name
 * appears (DataJud has no parties), and so do the courts' own searches where a consultation offers one
 * (court-search.ts: `meta.fontes`); covers come through the case store's freshness policy.
 * Price model (docs/credits.md): one flat charge per page or per summary, whatever the number of
 * cases; an empty answer is free.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.ts';
import { pageWindow } from '../../platform/http/pagination.ts';
import { listPage } from '../../platform/http/listing.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { derived, integratorShape, same } from '../../platform/http/integrator-fields.ts';
import { ListPagination, listSchema } from '../../platform/http/list.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { parseCpfCnpj } from '../../platform/identifiers/cpf-cnpj.ts';
import type { Services } from '../../platform/services.ts';
import { sourcesMeta, type CaseParts } from '../processes/parts.ts';
import { envolvidoView, partyCaseView } from './present.ts';
import { PartyCase, PartyQuery, PartySummary, PartySummaryQuery } from './schemas.ts';
import { summarize, SUMMARY_MAX_CASES } from './summary.ts';
import { COURT_SEARCH_NOTE, searchPartyCases, type PartySearch } from './court-search.ts';

const TAG = 'Envolvidos';

/**
 * The page-number vocabulary CPF searches are read with (conventions §4.7), beside the common one:
 * `{current_page, per_page, total, last_page, from, to}`, `from`/`to` the 1-based positions of this
 * page's first and last item (null on an empty page).
 */
const CpfPaginationShape = integratorShape('paginacao.cpf_cnpj', ListPagination, {
  current_page: derived(
    Type.Integer({ minimum: 1, description: 'The page number, also when asked by cursor.' }),
    (v, page: { offset: number; count: number }) => Math.floor(page.offset / v.perPage) + 1,
  ),
  per_page: same('perPage'),
  last_page: derived(Type.Integer({ minimum: 1, description: '`totalPages`, at least 1.' }), (v) => Math.max(1, Math.ceil((v.total ?? 0) / v.perPage))),
  from: derived(
    Type.Union([Type.Null(), Type.Integer()], { description: "1-based position of the page's first item; null on an empty page." }),
    (_v, page: { offset: number; count: number }) => (page.count > 0 ? page.offset + 1 : null),
  ),
  to: derived(
    Type.Union([Type.Null(), Type.Integer()], { description: "1-based position of the page's last item; null on an empty page." }),
    (_v, page: { offset: number; count: number }) => (page.count > 0 ? page.offset + page.count : null),
  ),
});

export function partyRoutes(app: FastifyInstance, s: Services, m: CaseParts): void {
  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos',
    meta: {
      class: 'search',
      auth: true,
      charge: 'processos.cpf_cnpj',
      async: true,
      tag: TAG,
      summary: 'Processes of a CPF or CNPJ',
      description:
        `Newest first, by page (\`limit\` 1–100, default 20; \`cursor\`). One flat charge per page, whatever it holds; a page with no case is ` +
        `free. \`meta.pagination.total\` counts every case found. ${COURT_SEARCH_NOTE}`,
    },
    schema: {
      querystring: PartyQuery,
      data: listSchema('processos', PartyCase, {
        document: Type.String({ description: 'The CPF or CNPJ, digits only.' }),
        documentType: Type.Union([Type.Literal('cpf'), Type.Literal('cnpj')]),
        envolvido: Nullable(Type.Object({ nome: Type.String(), tipoPessoa: Type.String(), quantidadeProcessos: Type.Integer() })),
        pagination: CpfPaginationShape.schema,
      }),
    },
    handler: async (req) => {
      const doc = parseCpfCnpj(req.query.cpf_cnpj, 'cpf_cnpj');
      const w = pageWindow(req.query);
      let found: PartySearch | undefined;
      let offset = 0;
      const { data, pagination } = await listPage(req, s.config, {
        listing: `processos:${doc.value}`,
        keys: ['o'],
        // Every number found, from the cursor's position; this page's (the window) looked up and read in the same pass.
        read: async (n, after?: { o: number }) => {
          const start = after?.o ?? 0;
          offset = start + w.skip;
          found = await searchPartyCases(
            m,
            { kind: 'documento', documento: doc.value },
            { documento: doc.value },
            { offset, limit: w.limit },
            { details: true },
          );
          return found.numeros.slice(start, start + n).map((numero, k) => ({ numero, o: start + k }));
        },
        position: (last) => ({ o: last.o + 1 }),
        name: 'processos',
        // The page's numbers that are stored, in order (one the store lacks is left out).
        view: (items) => {
          const byNumber = new Map(found!.cases.map((c) => [c.row.numero_cnj, c]));
          return items.flatMap((r) => (byNumber.has(r.numero) ? [partyCaseView(byNumber.get(r.numero)!, doc.value)] : []));
        },
        // Known once `read` has run: listPage asks after it.
        total: () => found?.numeros.length,
      });
      const { cases, numeros, fontes } = found!;
      return {
        data: {
          document: doc.value,
          documentType: doc.kind,
          envolvido: envolvidoView(cases, doc.value, numeros.length),
          ...data,
          pagination: CpfPaginationShape.present(data.pagination as Static<typeof ListPagination>, { offset, count: cases.length }),
        },
        meta: {
          pagination: { ...pagination, total: numeros.length },
          consulta: { cpf_cnpj: doc.masked, tipo: doc.kind },
          ...sourcesMeta(s.sources),
          fontes,
        },
        empty: cases.length === 0,
      };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/envolvidos/resumo',
    meta: {
      class: 'search',
      auth: true,
      charge: 'envolvidos.resumo',
      async: true,
      tag: TAG,
      summary: "Summary of a party's processes",
      description:
        `By \`cpf_cnpj\` or by \`nome\` (one of them). Counts by court, class, role and year, name spellings, first and last filing, total case ` +
        `value. Considers at most ${SUMMARY_MAX_CASES} cases (\`processosConsiderados\`). One flat charge; a party with no case is ` +
        `free. ${COURT_SEARCH_NOTE}`,
    },
    schema: { querystring: PartySummaryQuery, data: PartySummary },
    handler: async (req) => {
      const { cpf_cnpj: rawDoc, nome } = req.query;
      if (rawDoc === undefined && nome === undefined) throw new ApiError('MISSING_PARAMETER', 'Give `cpf_cnpj` or `nome`.', { field: 'cpf_cnpj', in: 'query' });
      if (rawDoc !== undefined && nome !== undefined)
        throw new ApiError('INVALID_PARAMETER', 'Give `cpf_cnpj` or `nome`, not both.', { field: 'nome', in: 'query' });
      const doc = rawDoc === undefined ? undefined : parseCpfCnpj(rawDoc, 'cpf_cnpj');
      const { cases, fontes } = await searchPartyCases(
        m,
        doc ? { kind: 'documento', documento: doc.value } : { kind: 'nome', nome: nome! },
        doc ? { documento: doc.value } : { nome: nome! },
        { offset: 0, limit: SUMMARY_MAX_CASES },
        { details: true },
      );
      const data = summarize(cases, doc ? { documento: doc.value } : { nome: nome! });
      return {
        data: { consulta: { cpf_cnpj: doc?.masked ?? null, nome: nome ?? null }, ...data },
        meta: { ...sourcesMeta(s.sources), fontes },
        empty: cases.length === 0,
      };
    },
  });
}
