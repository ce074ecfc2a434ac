/**
 * Reference lists (spec §4.7, §4.9): the 92 courts with what Tramita covers for each, and the court
 * systems. `/v1/tribunais/sistemas` is the historical path of `/v1/sistemas` and answers the same.
 * Free operations, authenticated like every /v1 business route.
 */
import { Type } from 'typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listData, listSchema } from '../../platform/http/list.ts';
import { defineRoute } from '../../platform/http/route.ts';
import type { Services } from '../../platform/services.ts';
import { sourcesStatus } from '../../platform/ports/status.ts';
import { SourcesStatus } from '../discovery/parts.ts';
import { coverageSummary } from '../../platform/ports/coverage.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { COURTS, SYSTEMS, type Court } from '../../platform/courts/table.ts';
import { consultaState } from '../../platform/observability/consultas.ts';
import { SAUDE, sourceHealth, type Saude } from '../../platform/observability/source-health.ts';
import type { Sources } from '../../platform/ports/sources.ts';

const SEGMENTS = [...new Set(COURTS.map((c) => c.segmento))];

const CourtView = Type.Object({
  sigla: Type.String(),
  nome: Type.String(),
  segmento: Type.String(),
  j: Type.String(),
  tr: Type.String(),
  codigoJTr: Type.String({ description: 'J.TR of the CNJ number, e.g. 8.26' }),
  ufs: Type.Array(Type.String()),
  sistemas: Type.Object({ atual: Type.String(), adicionais: Type.Array(Type.String()), legados: Type.Array(Type.String()) }),
  datajudAlias: Type.Union([Type.String(), Type.Null()]),
  cobertura: Type.Object(
    {
      fontes: Type.Array(Type.String(), { description: "The sources that give any field of this court's cases, in the order first asked." }),
      recursos: Type.Array(Type.String(), { description: 'The fields of `origens.campos` that some source gives for it.' }),
    },
    { description: 'The summary of `origens`, for this deployment.' },
  ),
  origens: Type.Object(
    {
      tribunal: Type.String(),
      sistema: Nullable(Type.String({ description: "The court's consultation system (`e-SAJ`, `PJe consulta pública`, `eproc`…); null when not surveyed." })),
      consulta: Type.Union(
        ['aberta', 'captcha', 'anti_bot', 'login', 'desconhecida'].map((v) => Type.Literal(v)),
        {
          description:
            '`aberta`: its public consultation reads without a challenge; `captcha`, `anti_bot`, `login`: why Tramita does not read it (never passed); ' +
            '`desconhecida`: not surveyed.',
        },
      ),
      consultaHabilitada: Type.Boolean({ description: 'This deployment reads its consultation (TRAMITA_CONSULTAS).' }),
      nota: Nullable(Type.String()),
      campos: Type.Object(
        Object.fromEntries(['capa', 'movimentos', 'textosMovimentos', 'partes', 'advogados', 'valor', 'documentos'].map((k) => [k, Type.Array(Type.String())])),
        {
          description:
            "Per field, the sources that give it in the order they are asked (`DataJud`, a consultation such as `e-SAJ TJSP`, the provider's name, `DJEN`).",
        },
      ),
      buscas: Type.Array(
        Type.Object({
          tipo: Type.String({ description: '`cpf_cnpj`, `nome` or `oab`.' }),
          fontes: Type.Array(Type.String({ description: '`armazenado`: what Tramita already stored.' })),
        }),
      ),
      estado: Type.Union(
        [
          Type.Null(),
          Type.Object({
            ultimoSucessoEm: Nullable(Type.String({ description: "When a page of this court's consultation was last read (a case, a not-found, a search)." })),
            ultimaFalha: Nullable(
              Type.Object({
                em: Type.String(),
                etapa: Type.String({ description: '`formulario` (search form), `busca`, `lista`, `detalhe` (case page), `partes`, `dados`, `consulta`.' }),
                falha: Type.String({ description: '`malformed` (the page is not one of its system: the court changed it), `captcha`, `anti_bot`, `timeout`…' }),
                motivo: Type.String({ description: 'What was unexpected, in words; never page content.' }),
              }),
            ),
            anomalias: Type.Record(Type.String(), Type.Integer(), {
              description: 'Lines of its pages read only in part, per field (`parte.tipo`, `advogado.oab`, `movimento.data`…).',
            }),
          }),
        ],
        {
          description:
            "This process's view of the court's consultation since it started (docs/operations.md, 'A court changed its pages'); " +
            'null when it was never asked.',
        },
      ),
      saude: Type.Record(Type.String(), Type.Union([Type.Literal('saudavel'), Type.Literal('degradada'), Type.Literal('falhando')]), {
        description:
          "The health of each source of this court's cases across the deployment (issue 51), by source: `datajud`, `djen`, the provider (`portal`), the " +
          "court's consultation (`consulta-tjsp`): `falhando` ones are not waited on by lookups (their parts come later, as `enriquecimento` says).",
      }),
    },
    {
      description:
        "Where each field of this court's cases comes from and which searches reach them, for this deployment (docs/coverage.md: the default configuration).",
    },
  ),
});

const CourtsQuery = Type.Object(
  {
    segmento: Type.Optional(Type.Union(SEGMENTS.map((s) => Type.Literal(s)))),
    uf: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Courts whose jurisdiction includes this UF (national courts included).' })),
  },
  { additionalProperties: false },
);

const SystemView = Type.Object({
  nome: Type.String(),
  tribunais: Type.Object({ atual: Type.Array(Type.String()), adicional: Type.Array(Type.String()), legado: Type.Array(Type.String()) }),
});

/** A reference list, whole: one page in the common list body (platform/http/list.ts). */
const whole = <T>(req: FastifyRequest, s: Services, items: T[]) =>
  listData(req, s.config, 'items', items, { limit: Math.max(1, items.length), nextCursor: null, page: 1 }, items.length);

export function courtRoutes(app: FastifyInstance, s: Services): void {
  defineRoute(app, {
    method: 'GET',
    url: '/v1/integrador',
    meta: { class: 'reference', auth: true, tag: 'Referência', summary: 'The 92 courts and what Tramita covers for each' },
    schema: { querystring: CourtsQuery, data: listSchema('items', CourtView, { fontes: SourcesStatus }) },
    handler: async (req) => {
      const uf = req.query.uf?.toUpperCase();
      const courts = COURTS.filter((c) => (!req.query.segmento || c.segmento === req.query.segmento) && (!uf || c.ufs.includes(uf) || c.ufs.includes('BR')));
      return {
        data: {
          ...whole(
            req,
            s,
            courts.map((c) => {
              const origens = s.sources.coverage.court(c);
              return {
                sigla: c.sigla,
                nome: c.nome,
                segmento: c.segmento,
                j: c.j,
                tr: c.tr,
                codigoJTr: `${c.j}.${c.tr}`,
                ufs: c.ufs,
                sistemas: { atual: c.sistemaAtual, adicionais: c.sistemasAdicionais, legados: c.sistemasLegados },
                datajudAlias: c.datajudAlias,
                cobertura: coverageSummary(origens),
                origens: { ...origens, estado: consultaState(c.sigla), saude: courtHealth(c, s.sources) },
              };
            }),
          ),
          // Which sources this deployment has, beside what each court could have.
          fontes: sourcesStatus(s.sources),
        },
        meta: { total: courts.length },
      };
    },
  });

  for (const url of ['/v1/sistemas', '/v1/tribunais/sistemas']) {
    defineRoute(app, {
      method: 'GET',
      url,
      meta: {
        class: 'reference',
        auth: true,
        tag: 'Referência',
        summary: url === '/v1/sistemas' ? 'Court systems and the courts that use them' : 'Same as /v1/sistemas (historical path, spec §4.9)',
      },
      schema: { data: listSchema('items', SystemView) },
      handler: async (req) => ({
        data: whole(
          req,
          s,
          SYSTEMS.map((sys) => ({ nome: sys.nome, tribunais: { atual: sys.atual, adicional: sys.adicional, legado: sys.legado } })),
        ),
        meta: { total: SYSTEMS.length },
      }),
    });
  }
}

/** The health of the sources a court's cases come from in this deployment (issue 51). */
function courtHealth(c: Court, sources: Sources): Record<string, Saude> {
  const provider = sources.provider;
  const names = [
    ...(c.datajudAlias ? ['datajud'] : []),
    'djen',
    ...(provider && (provider.courts === 'all' || provider.courts.includes(c.sigla)) ? ['portal'] : []),
    ...(sources.consultas?.courts.filter((k) => k.sigla === c.sigla).map((k) => k.source) ?? []),
  ];
  return Object.fromEntries(names.map((n) => [n, SAUDE[sourceHealth(n).state]]));
}
