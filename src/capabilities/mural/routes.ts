/**
 * The electoral bulletin board (spec §4.6, Mural Eletrônico): searched live through the provider the
 * operator configures (ports/mural.ts, docs/providers.md), never through the board's own reCAPTCHA-
 * gated search. Without a provider both operations answer 503 SOURCE_NOT_CONFIGURED, uncharged. The
 * provider's pages are the listing's pages (`page`, or the `cursor` of the previous one). Nothing of
 * the board is stored: its items are personal data of candidates, read when asked.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.ts';
import { PAGE_NUMBER_MAX } from '../../platform/http/pagination.ts';
import { listSchema } from '../../platform/http/list.ts';
import { listSourcePage } from '../../platform/http/listing.ts';
import { gazettePeriod } from '../../platform/http/period.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { parseOab } from '../../platform/identifiers/oab.ts';
import { iso } from '../../platform/clock.ts';
import { brasiliaDay } from '../../platform/format.ts';
import { MURAL_DOCUMENT_KINDS, type MuralPublicationRecord, type MuralSource } from '../../platform/ports/mural.ts';
import { configuredProvider } from '../../platform/ports/provider.ts';
import type { Services } from '../../platform/services.ts';
import { DEFAULT_PERIOD_DAYS, electoralCourt, MAX_PERIOD_DAYS, PeriodQuery, PeriodSchema } from '../gazettes/parts.ts';

const PATH = '/v1/mural-eleitoral/publicacoes';
const TAG = 'Mural eleitoral';

const MuralPublication = Type.Object({
  id: Type.String({ description: "The provider's id: GET …/{id}/{documentKind}." }),
  numero: Nullable(Type.String()),
  tribunal: Type.String(),
  publicadoEm: Type.String({ description: 'ISO-8601 instant.' }),
  tipoDocumento: Nullable(Type.String()),
  numeroProcesso: Nullable(Type.String({ description: 'Masked CNJ number, when the provider gave a valid one.' })),
  numeroCnjDigitos: Nullable(Type.String()),
  texto: Type.String(),
  partes: Type.Array(Type.Object({ nome: Type.String(), advogados: Type.Array(Type.Object({ nome: Type.String(), oab: Nullable(Type.String()) })) })),
  links: Type.Object({ documento: Type.String(), certidao: Type.String() }),
  fonte: Type.Literal('Mural eleitoral'),
  sandbox: Type.Boolean(),
});

function provider(s: Services): MuralSource {
  return configuredProvider(s.sources.mural, {
    source: 'mural',
    setting: 'TRAMITA_MURAL_PROVIDER_URL',
    message:
      "The electoral bulletin board's search needs a human reCAPTCHA token: it is served by a provider the operator configures (TRAMITA_MURAL_PROVIDER_URL, " +
      'docs/providers.md), and none is configured.',
  });
}

function view(r: MuralPublicationRecord, publicUrl: string | undefined, sandbox: boolean) {
  const base = `${publicUrl ?? ''}${PATH}/${encodeURIComponent(r.id)}`;
  return {
    id: r.id,
    numero: r.numero,
    tribunal: r.tribunal,
    publicadoEm: r.publicadoEm,
    tipoDocumento: r.tipoDocumento,
    numeroProcesso: r.numeroCnj ? formatCnj(r.numeroCnj) : null,
    numeroCnjDigitos: r.numeroCnj,
    texto: r.texto,
    partes: r.partes,
    links: { documento: `${base}/documento`, certidao: `${base}/certidao` },
    fonte: 'Mural eleitoral' as const,
    sandbox,
  };
}

export function muralRoutes(app: FastifyInstance, s: Services): void {
  defineRoute(app, {
    method: 'GET',
    url: PATH,
    meta: {
      class: 'search',
      auth: true,
      charge: 'mural_eleitoral.publicacoes',
      async: true,
      tag: TAG,
      summary: 'Search the electoral bulletin board',
      description:
        'Intimations, notifications and decisions posted on the Mural Eletrônico of the TSE and TREs, by `parte`, `advogado` or `oab` (at least one), ' +
        'optionally `tribunal` (TSE or TRE-<UF>), ' +
        "in the period `data_inicio`/`data_fim` (at most 62 days; default the last 7). Served by the operator's provider (docs/providers.md): without one, " +
        '503 SOURCE_NOT_CONFIGURED, never charged. ' +
        'Pages as the provider gives them: `page`, or `cursor` from `links.next`. One flat charge per page; an empty page is free.',
    },
    schema: {
      querystring: Type.Object(
        {
          parte: Type.Optional(Type.String({ minLength: 3, maxLength: 200 })),
          advogado: Type.Optional(Type.String({ minLength: 3, maxLength: 200 })),
          oab: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Any spelling.' })),
          tribunal: Type.Optional(Type.String({ minLength: 1, maxLength: 10 })),
          ...PeriodQuery,
          page: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_NUMBER_MAX })),
          cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
        },
        { additionalProperties: false },
      ),
      data: listSchema('items', MuralPublication, { periodo: PeriodSchema }),
    },
    handler: async (req) => {
      const q = req.query;
      if (!q.parte && !q.advogado && !q.oab)
        throw new ApiError('MISSING_PARAMETER', 'Say whom to look for: `parte`, `advogado` or `oab`.', { field: 'parte', in: 'query' });
      const tribunal = q.tribunal === undefined ? undefined : electoralCourt(q.tribunal);
      const oab = q.oab === undefined ? undefined : parseOab(q.oab, 'oab').canonical;
      const p = gazettePeriod(q, { today: brasiliaDay(iso(s.clock.now()))!, maxDays: MAX_PERIOD_DAYS, defaultDays: DEFAULT_PERIOD_DAYS });
      const source = provider(s);
      const listing = `mural:${JSON.stringify([q.parte, q.advogado, oab, tribunal, p])}`;
      const { data, pagination, rows } = await listSourcePage(req, s.config, {
        listing,
        read: async (pagina) => {
          const found = await source.search({ parte: q.parte, advogado: q.advogado, oab, tribunal, de: p.inicio, ate: p.fim, pagina });
          return { items: found.items, more: found.proxima, total: found.total ?? undefined };
        },
        name: 'items',
        view: (items) => items.map((r) => view(r, s.config.publicUrl, source.info.sandbox)),
      });
      return { data: { ...data, periodo: p }, meta: { pagination }, empty: rows.length === 0 };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${PATH}/:id/:documentKind`,
    meta: {
      class: 'download',
      auth: true,
      charge: 'mural_eleitoral.documento',
      async: true,
      tag: TAG,
      summary: 'Download a document or certificate of the electoral bulletin board',
      binary: 'application/pdf',
      description:
        "`documentKind`: `documento` (the act as posted) or `certidao` (the certificate of its posting). Through the operator's provider (503 " +
        'SOURCE_NOT_CONFIGURED without one); an id or document the provider does not have is 404 PUBLICATION_NOT_FOUND. Never ' +
        'charged unless the file is sent.',
    },
    schema: {
      params: Type.Object(
        {
          id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[0-9A-Za-z._:-]+$' }),
          documentKind: Type.Union(
            MURAL_DOCUMENT_KINDS.map((k) => Type.Literal(k)),
            { description: '`documento` or `certidao`.' },
          ),
        },
        { additionalProperties: false },
      ),
    },
    handler: async (req) => {
      const doc = await provider(s).document(req.params.id, req.params.documentKind);
      if (!doc) throw new ApiError('PUBLICATION_NOT_FOUND', `The mural provider has no ${req.params.documentKind} for "${req.params.id}".`);
      return { file: { contentType: doc.contentType, body: doc.body, filename: doc.fileName ?? `mural-${req.params.id}-${req.params.documentKind}.pdf` } };
    },
  });
}
