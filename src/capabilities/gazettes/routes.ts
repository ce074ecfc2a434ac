/**
 * The gazettes of spec §4.6: the STF's own DJe and the electoral DJE (TSE and TREs). Searches and
 * listings answer from the store after reading, on demand, the days of their period the store lacks
 * (days.ts): so they may reach the source, are async-eligible, and a source failure is an uncharged
 * SOURCE_UNAVAILABLE/SOURCE_TIMEOUT, never an empty answer. Periods: `data_inicio`/`data_fim`, at most
 * 62 days (platform/http/period.ts), 7 days back from today when absent. One flat charge per page; an
 * empty page is free. An edition's PDF is read from the source when asked (Tramita keeps its text).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.ts';
import { PageQuery, type PageParams } from '../../platform/http/pagination.ts';
import { listSchema } from '../../platform/http/list.ts';
import { listPage } from '../../platform/http/listing.ts';
import { gazettePeriod, type Period } from '../../platform/http/period.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { parseCnj } from '../../platform/identifiers/cnj.ts';
import { parseOab } from '../../platform/identifiers/oab.ts';
import { isElectoralCourt } from '../../platform/ports/electoral.ts';
import type { Services } from '../../platform/services.ts';
import type { GazetteDays } from './days.ts';
import { DJE_PATH, editionView, electoralView, STF_PATH, stfView } from './present.ts';
import { stfStoreId } from './records.ts';
import { searchGazette, searchWords } from './search-store.ts';
import { editionsOf, findEdition, findGazettePublication, type EditionPosition } from './store.ts';
import { ElectoralPublication, Edition, PeriodQuery, PeriodSchema, StfPublication } from './schemas.ts';

/** Spec §8: an electoral edition listing takes at most 62 days; the same bound for every gazette period. */
export const MAX_PERIOD_DAYS = 62;
export const DEFAULT_PERIOD_DAYS = 7;
const STF_TAG = 'STF';
const DJE_TAG = 'DJE eleitoral';

/** `TSE` or `TRE-<UF>` (any case), else 400 INVALID_ELECTORAL_COURT. */
export function electoralCourt(v: string, field = 'tribunal'): string {
  const t = v.trim().toUpperCase();
  if (!isElectoralCourt(t)) throw new ApiError('INVALID_ELECTORAL_COURT', `\`${field}\` "${v}" is not TSE nor TRE-<UF> (e.g. TRE-SP).`, { field, in: 'query' });
  return t;
}

const OabQuery = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 40,
    description:
      'An OAB in any spelling (SP123456, 123456/SP, OAB/SP 123.456, 29202-A/MA): publications naming that registration, also when it is one ' +
      "of a lawyer's several. " +
      'A letter is part of the registration: MA29202A finds `29202-A/MA`, MA29202 does not.',
  }),
);

/** What an STF answer needs: the public URL of its links and the STF port's reader of a stored item. */
const stfReading = (s: Services) => ({ publicUrl: s.config.publicUrl, read: (item: unknown) => s.sources.stf.readItem(item) });

export function gazetteRoutes(app: FastifyInstance, s: Services, days: GazetteDays): void {
  type Found = Awaited<ReturnType<typeof searchGazette>>[number];
  /** A page of a gazette search (STF's DJe, the electoral DJEs), newest first. */
  const searchPage = (req: FastifyRequest & { query: PageParams }, listing: string, filter: Parameters<typeof searchGazette>[2], view: (r: Found) => unknown) =>
    listPage(req, s.config, {
      listing,
      keys: ['data', 'id'],
      read: (limit, before?: { data: string; id: string }) => searchGazette(s.db, s.database.engine, filter, { limit, before }),
      position: (r) => ({ data: r.data_disponibilizacao, id: r.id }),
      name: 'items',
      view: (items) => items.map(view),
    });

  const period = (q: { data_inicio?: string; data_fim?: string }): Period =>
    gazettePeriod(q, { today: days.today(), maxDays: MAX_PERIOD_DAYS, defaultDays: DEFAULT_PERIOD_DAYS });

  defineRoute(app, {
    method: 'GET',
    url: STF_PATH,
    meta: {
      class: 'search',
      auth: true,
      charge: 'stf.publicacoes',
      async: true,
      tag: STF_TAG,
      summary: 'Search the STF gazette (DJe STF)',
      description:
        'Publications the STF divulged in the period (`data_inicio`/`data_fim`, YYYY-MM-DD, at most 62 days; default the last 7), newest first, filtered by ' +
        '`termo` (words anywhere, accents and case ignored), ' +
        '`parte`, `oab` (any spelling), `processo` (e.g. `ARE 1.456.789`) and `relator`. Days not yet in the store are read from the STF first. `limit` ' +
        '1–100, `cursor` or `page`. One flat charge per page; an empty page is free.',
    },
    schema: {
      querystring: Type.Object(
        {
          termo: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          parte: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          oab: OabQuery,
          processo: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
          relator: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          ...PeriodQuery,
          ...PageQuery,
        },
        { additionalProperties: false },
      ),
      data: listSchema('items', StfPublication, { periodo: PeriodSchema }),
    },
    handler: async (req) => {
      const q = req.query;
      const p = period(q);
      const oab = q.oab === undefined ? undefined : parseOab(q.oab, 'oab').canonical;
      await days.ensure('STF', p);
      const listing = `stf:${JSON.stringify([q.termo, q.parte, oab, q.processo, q.relator, p])}`;
      const { data, pagination, rows } = await searchPage(
        req,
        listing,
        { fonte: s.sources.stf.info.name, inicio: p.inicio, fim: p.fim, oab, palavras: searchWords(q.termo, q.parte, q.processo, q.relator) },
        (r) => stfView(r, stfReading(s)),
      );
      return { data: { ...data, periodo: p }, meta: { pagination }, empty: rows.length === 0 };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${STF_PATH}/:id`,
    meta: {
      class: 'lookup',
      auth: true,
      charge: 'stf.publicacao',
      tag: STF_TAG,
      summary: 'One STF gazette publication',
      description:
        "By the `id` a search gave (STF's own). The text as plain text; `incluir_html=true` adds `html`, the publication as the STF wrote it. An id Tramita " +
        'has not stored is 404 PUBLICATION_NOT_FOUND (STF has no lookup by id). Price R$ 0,05.',
    },
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9A-Za-z_-]+$' }) }, { additionalProperties: false }),
      querystring: Type.Object(
        { incluir_html: Type.Optional(Type.Boolean({ default: false, description: 'Also return `html`.' })) },
        { additionalProperties: false },
      ),
      data: StfPublication,
    },
    handler: async (req) => {
      const row = await findGazettePublication(s.db, stfStoreId(req.params.id));
      if (!row) throw new ApiError('PUBLICATION_NOT_FOUND', `No STF gazette publication "${req.params.id}" in the store: take ids from GET ${STF_PATH}.`);
      return { data: stfView(row, stfReading(s), { html: req.query.incluir_html === true }) };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${DJE_PATH}/edicoes`,
    meta: {
      class: 'search',
      auth: true,
      charge: 'dje_eleitoral.edicoes',
      async: true,
      tag: DJE_TAG,
      summary: 'Editions of an electoral gazette',
      description:
        '`tribunal` is `TSE` or `TRE-<UF>` (400 INVALID_ELECTORAL_COURT otherwise). The period `data_inicio`/`data_fim` (YYYY-MM-DD) has at most 62 days ' +
        '(422 PERIOD_TOO_LONG; an end before the start is 422 PERIOD_INVERTED); default the last 7 days. ' +
        'Editions newest first, each with its number, day, whether it is an extra edition, its publications and the link to its PDF. Days not yet in the ' +
        'store are read from the source first. Price R$ 0,12 per page; an empty page is free.',
    },
    schema: {
      querystring: Type.Object(
        { tribunal: Type.String({ minLength: 1, maxLength: 10, description: '`TSE` or `TRE-<UF>`.' }), ...PeriodQuery, ...PageQuery },
        { additionalProperties: false },
      ),
      data: listSchema('edicoes', Edition, { tribunal: Type.String(), periodo: PeriodSchema }),
    },
    handler: async (req) => {
      const tribunal = electoralCourt(req.query.tribunal);
      const p = period(req.query);
      await days.ensure(tribunal, p);
      const listing = `edicoes:${tribunal}:${p.inicio}:${p.fim}`;
      const { data, pagination, rows } = await listPage(req, s.config, {
        listing,
        keys: ['data', 'numero'],
        read: (limit, before?: EditionPosition) => editionsOf(s.db, tribunal, p, { limit, before }),
        position: (r) => ({ data: r.data, numero: r.numero }),
        name: 'edicoes',
        view: (items) => items.map((e) => editionView(e, s.config.publicUrl)),
      });
      return { data: { ...data, tribunal, periodo: p }, meta: { pagination }, empty: rows.length === 0 };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${DJE_PATH}/edicoes/:id/pdf`,
    meta: {
      class: 'download',
      auth: true,
      charge: 'dje_eleitoral.edicao_pdf',
      async: true,
      tag: DJE_TAG,
      summary: 'PDF of an electoral gazette edition',
      binary: 'application/pdf',
      description:
        'The edition (`id` from the listing, `<tribunal>:<número>`) as the court published it, read from the source. An unknown id is 404 EDITION_NOT_FOUND; ' +
        'a PDF the source cuts or fails to send is SOURCE_UNAVAILABLE, never charged.',
    },
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 5, maxLength: 30, pattern: '^(TSE|TRE-[A-Za-z]{2}):[0-9]+$' }) }, { additionalProperties: false }),
    },
    handler: async (req) => {
      const edition = await findEdition(s.db, req.params.id.toUpperCase());
      if (!edition) throw new ApiError('EDITION_NOT_FOUND', `No electoral gazette edition "${req.params.id}": take ids from GET ${DJE_PATH}/edicoes.`);
      const body = await s.sources.electoral.pdf(edition.tribunal, edition.numero);
      return { file: { contentType: 'application/pdf', body, filename: `dje-${edition.tribunal}-${edition.numero}.pdf` } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${DJE_PATH}/publicacoes`,
    meta: {
      class: 'search',
      auth: true,
      charge: 'dje_eleitoral.publicacoes',
      async: true,
      tag: DJE_TAG,
      summary: 'Search electoral gazette publications',
      description:
        'Matérias of the electoral gazettes in the period (`data_inicio`/`data_fim`, at most 62 days; default the last 7), newest first, filtered by ' +
        '`tribunal` (TSE or TRE-<UF>; its missing days are read from the source first; ' +
        'without it, every court Tramita has ingested), `termo`, `parte`, `oab` (any spelling) and `numero_processo` (CNJ). One ' +
        'flat charge per page; an empty page is free.',
    },
    schema: {
      querystring: Type.Object(
        {
          tribunal: Type.Optional(Type.String({ minLength: 1, maxLength: 10 })),
          termo: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          parte: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          oab: OabQuery,
          numero_processo: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
          ...PeriodQuery,
          ...PageQuery,
        },
        { additionalProperties: false },
      ),
      data: listSchema('items', ElectoralPublication, { periodo: PeriodSchema }),
    },
    handler: async (req) => {
      const q = req.query;
      const tribunal = q.tribunal === undefined ? undefined : electoralCourt(q.tribunal);
      const p = period(q);
      const oab = q.oab === undefined ? undefined : parseOab(q.oab, 'oab').canonical;
      const numeroCnj = q.numero_processo === undefined ? undefined : parseCnj(q.numero_processo, 'numero_processo').digits;
      if (tribunal) await days.ensure(tribunal, p);
      const listing = `dje:${JSON.stringify([tribunal, q.termo, q.parte, oab, numeroCnj, p])}`;
      const { data, pagination, rows } = await searchPage(
        req,
        listing,
        { fonte: s.sources.electoral.info.name, tribunal, inicio: p.inicio, fim: p.fim, oab, numeroCnj, palavras: searchWords(q.termo, q.parte) },
        (r) => electoralView(r, s.config.publicUrl),
      );
      return { data: { ...data, periodo: p }, meta: { pagination }, empty: rows.length === 0 };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${DJE_PATH}/publicacoes/:id`,
    meta: {
      class: 'lookup',
      auth: true,
      charge: 'dje_eleitoral.publicacao',
      tag: DJE_TAG,
      summary: 'One electoral gazette publication',
      description:
        "By the `id` a search gave (`<tribunal>:<edição>:<ordem>`): the matéria's text, parties and lawyers as printed, and its edition. Unknown: 404 " +
        'PUBLICATION_NOT_FOUND.',
    },
    schema: {
      params: Type.Object(
        { id: Type.String({ minLength: 7, maxLength: 40, pattern: '^(TSE|TRE-[A-Za-z]{2}):[0-9]+:[0-9]+$' }) },
        { additionalProperties: false },
      ),
      data: ElectoralPublication,
    },
    handler: async (req) => {
      const row = await findGazettePublication(s.db, req.params.id.toUpperCase(), s.sources.electoral.info.name);
      if (!row) throw new ApiError('PUBLICATION_NOT_FOUND', `No electoral gazette publication "${req.params.id}": take ids from GET ${DJE_PATH}/publicacoes.`);
      return { data: electoralView(row, s.config.publicUrl) };
    },
  });
}
