/**
 * `GET /v1/precatorios` (spec §4.2): the stored precatório and RPV records, in the order a court's list
 * reads (court, budget year, chronological order), filtered by court, debtor, year, status, nature,
 * case number or creditor (CPF/CNPJ, matched by its keyed fingerprint: the document itself is never
 * stored). Each record says where it came from and when. One flat charge per page; an empty page is free.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireCourtSigla } from '../../platform/courts/table.ts';
import { formatReais } from '../../platform/format.ts';
import { PageQuery } from '../../platform/http/pagination.ts';
import { listSchema } from '../../platform/http/list.ts';
import { listPage } from '../../platform/http/listing.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { formatCnj, parseCnj } from '../../platform/identifiers/cnj.ts';
import { parseCpfCnpj } from '../../platform/identifiers/cpf-cnpj.ts';
import type { PrecatoriosTable } from '../../platform/db/schema.ts';
import type { Services } from '../../platform/services.ts';
import { foldText } from '../../platform/text.ts';
import { listPrecatorios } from './store.ts';

const Precatorio = Type.Object({
  id: Type.String(),
  tribunal: Type.String(),
  numero: Type.String({ description: "The precatório's (or RPV's) number as the court lists it." }),
  numeroProcesso: Nullable(Type.String({ description: 'Masked CNJ number of the case, when the source gives a valid one.' })),
  enteDevedor: Nullable(Type.String()),
  natureza: Nullable(Type.String({ description: 'e.g. Alimentar, Comum.' })),
  classe: Nullable(Type.String({ description: 'The TPU class (Precatório, Requisição de Pequeno Valor) when the source is DataJud.' })),
  anoOrcamento: Nullable(Type.Integer()),
  ordem: Nullable(Type.Integer({ description: "Position in the court's chronological order." })),
  situacao: Nullable(Type.String()),
  valor: Nullable(Type.Object({ valor: Type.Number(), moeda: Type.Literal('BRL'), valor_formatado: Type.String() })),
  valorCentavos: Nullable(Type.Integer()),
  fonte: Type.Object({
    nome: Type.String({ description: '`importacao` (a list the operator imported) or `datajud` (the classes 1265/1266 harvest).' }),
    url: Nullable(Type.String()),
    coletadoEm: Type.String(),
  }),
});

function view(r: PrecatoriosTable) {
  return {
    id: r.id,
    tribunal: r.tribunal,
    numero: r.numero,
    numeroProcesso: r.numero_processo ? formatCnj(r.numero_processo) : null,
    enteDevedor: r.ente_devedor,
    natureza: r.natureza,
    classe: r.classe,
    anoOrcamento: r.ano_orcamento,
    ordem: r.ordem,
    situacao: r.situacao,
    valor: r.valor_centavos === null ? null : { valor: r.valor_centavos / 100, moeda: 'BRL' as const, valor_formatado: formatReais(r.valor_centavos) },
    valorCentavos: r.valor_centavos,
    fonte: { nome: r.fonte, url: r.fonte_url, coletadoEm: r.coletado_em },
  };
}

export function precatorioRoutes(app: FastifyInstance, s: Services): void {
  defineRoute(app, {
    method: 'GET',
    url: '/v1/precatorios',
    meta: {
      class: 'search',
      auth: true,
      charge: 'precatorios.consulta',
      tag: 'Precatórios',
      summary: 'List precatório and RPV records',
      description:
        "Records Tramita holds (court lists the operator imported with `tramita precatorios import`, and DataJud's precatório and RPV processes, classes " +
        "1265/1266, harvested daily for the courts TRAMITA_PRECATORIOS_DATAJUD names), in each court's order: `tribunal` (422 " +
        "UNKNOWN_COURT), `ente` (a fragment of the debtor's name, accents ignored), " +
        '`ano` (budget year), `situacao`, `natureza`, `numero_processo` (CNJ), `credor` (CPF/CNPJ of a creditor, matched by a keyed fingerprint: Tramita ' +
        'never stores the document). `limit` 1–100, `cursor` or `page`. One flat charge per page; an empty page is free.',
    },
    schema: {
      querystring: Type.Object(
        {
          tribunal: Type.Optional(Type.String({ minLength: 2, maxLength: 10 })),
          ente: Type.Optional(Type.String({ minLength: 2, maxLength: 200 })),
          ano: Type.Optional(Type.Integer({ minimum: 1988, maximum: 2100 })),
          situacao: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          natureza: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          numero_processo: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
          credor: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'CPF or CNPJ, bare or masked.' })),
          ...PageQuery,
        },
        { additionalProperties: false },
      ),
      data: listSchema('items', Precatorio),
    },
    handler: async (req) => {
      const q = req.query;
      const filter = {
        tribunal: q.tribunal === undefined ? undefined : requireCourtSigla(q.tribunal.trim().toUpperCase(), 'tribunal').sigla,
        ente: q.ente === undefined ? undefined : foldText(q.ente),
        ano: q.ano,
        situacao: q.situacao,
        natureza: q.natureza,
        numeroProcesso: q.numero_processo === undefined ? undefined : parseCnj(q.numero_processo, 'numero_processo').digits,
        credorHash: q.credor === undefined ? undefined : s.secrets.fingerprint(parseCpfCnpj(q.credor, 'credor').value),
      };
      const listing = `precatorios:${JSON.stringify(filter)}`;
      const { data, pagination, rows } = await listPage(req, s.config, {
        listing,
        keys: ['ordenacao', 'id'],
        read: (limit, after?: { ordenacao: string; id: string }) => listPrecatorios(s.db, filter, { limit, after }),
        position: (r) => ({ ordenacao: r.ordenacao, id: r.id }),
        name: 'items',
        view: (items) => items.map(view),
      });
      return { data, meta: { pagination }, empty: rows.length === 0 };
    },
  });
}
