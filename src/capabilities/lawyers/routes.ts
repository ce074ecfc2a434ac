/**
 * Lawyer endpoints by OAB (spec §4.4). Each lookup first brings the OAB's recent publications up to
 * date (publications/history.ts `syncRecent`, under the freshness policy) and starts the consolidation
 * of its whole history in the background; answers come from the store. All may reach DJEN, so they are
 * async-eligible. The asynchronous OAB search has its own id and status (oab-search.ts).
 */
import { askedCallback } from '../../platform/http/callback-flag.ts';
import type { FastifyInstance } from 'fastify';
import { courtByJTr, requireCourtSigla } from '../../platform/courts/table.ts';
import { ApiError } from '../../platform/errors.ts';
import { absoluteUrl } from '../../platform/http/absolute-url.ts';
import { listSchema } from '../../platform/http/list.ts';
import { listPage } from '../../platform/http/listing.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { parseOabParts } from '../../platform/identifiers/oab.ts';
import { brasiliaDayBefore } from '../../platform/format.ts';
import type { Services } from '../../platform/services.ts';
import { HISTORY_START, Publication, publicationsOfOab, publicationView, storedPublication, syncRecent, type PublicationParts } from '../publications/parts.ts';
import { oabOfRequest } from '../../platform/http/oab-params.ts';
import { caseHeadlineRows, situacaoOf, type CaseParts } from '../processes/parts.ts';
import { assertAnswered, COURT_SEARCH_NOTE, searchCourts, type CourtSources } from '../parties/parts.ts';
import { createOabSearch, findOabSearch, OAB_SEARCH_QUERY_TYPE, oabSearchView } from './oab-search.ts';
import {
  confirmedActive,
  gazetteCoverage,
  latestMovements,
  nameVariants,
  processesOfOab,
  RECENT_PROCESS_DAYS,
  type LawyerProcess as OabProcess,
} from './portfolio.ts';
import { LawyerProcess, LawyerSummary, OabPageQuery, OabQuery, OabSearch, OabSearchBody, OabSearchParams, LawyerOfList } from './schemas.ts';

const TAG = 'Advogados';
const FRESHNESS =
  "Before answering, the OAB's publications of the last 30 days are fetched from DJEN when the stored ones are older than TRAMITA_CASE_FRESH_MINUTES; " +
  'its whole history is consolidated in the background (see `GET /v1/advogados/resumo` `cobertura`). OAB as `oab_estado` ' +
  '+ `oab_numero`, or `oab` (e.g. SP123456).';

export function lawyerRoutes(app: FastifyInstance, s: Services, pub: PublicationParts, cases: CaseParts): void {
  defineRoute(app, {
    method: 'GET',
    url: '/v1/advogados/processos',
    meta: {
      class: 'search',
      auth: true,
      charge: 'advogados.processos',
      async: true,
      tag: TAG,
      summary: 'Processes of a lawyer (OAB)',
      description:
        `Processes of one exact OAB, deduplicated by CNJ number: named in gazette publications (DJEN), listed as the lawyer of a stored case, or ` +
        `found by the courts' own OAB search (\`CONSULTA\`). Newest publication first, then the courts' finds; \`limit\` 1–100, ` +
        `\`cursor\`. One flat charge per page; an empty page is free. ${FRESHNESS} ${COURT_SEARCH_NOTE}`,
    },
    schema: { querystring: OabPageQuery, data: listSchema('processos', LawyerProcess, { advogado: LawyerOfList }) },
    handler: async (req) => {
      const oab = oabOfRequest(req.query, 'query');
      await syncRecent(s, pub.ingest, oab.canonical);
      let all: OabProcess[] = [];
      let fontes: CourtSources | undefined;
      const { data, pagination, rows } = await listPage(req, s.config, {
        listing: `advogados.processos:${oab.canonical}`,
        keys: ['i'],
        read: async (n, after?: { i: number }) => {
          const courts = await searchCourts(cases, { kind: 'oab', oab });
          all = withCourtHits(await processesOfOab(s.db, oab), courts.numeros);
          assertAnswered(courts.fontes, all.length);
          fontes = courts.fontes;
          const start = after?.i ?? 0;
          return all.slice(start, start + n).map((p, k) => ({ p, i: start + k }));
        },
        position: (last) => ({ i: last.i + 1 }),
        name: 'processos',
        view: async (items) => {
          const headlines = await headlinesOf(
            s,
            items.map(({ p }) => p.numeroCnj),
          );
          const none: Headline = { classe: null, orgaoJulgador: null, anoInicio: null, poloAtivo: null, poloPassivo: null, statusProcessual: null };
          return items.map(({ p }) => ({
            ...p,
            ...(headlines.get(p.numeroCnj) ?? none),
            numeroCnj: formatCnj(p.numeroCnj),
            classificacao: p.fontes.join(', '),
          }));
        },
        // Known once `read` has run: listPage asks after it.
        total: () => all.length,
      });
      const advogado = { oab: { estado: oab.uf, numero: oab.numero }, nome: (await nameVariants(s.db, oab))[0]?.nome ?? null };
      return {
        data: { advogado, ...data },
        meta: { pagination: { ...pagination, total: all.length }, fontes },
        empty: rows.length === 0,
      };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/advogados/diarios-oficiais',
    meta: {
      class: 'search',
      auth: true,
      charge: 'advogados.diarios_oficiais',
      async: true,
      tag: TAG,
      summary: 'Gazette publications naming a lawyer (OAB)',
      description:
        `The publications (DJEN) that name one exact OAB, in any spelling the court printed, each with its process; newest first; \`limit\` ` +
        `1–100, \`cursor\`. One flat charge per page; an empty page is free. ${FRESHNESS}`,
    },
    schema: { querystring: OabPageQuery, data: listSchema('items', Publication) },
    handler: async (req) => {
      const oab = oabOfRequest(req.query, 'query');
      await syncRecent(s, pub.ingest, oab.canonical);
      const { data, pagination, rows } = await listPage(req, s.config, {
        listing: `advogados.diarios:${oab.canonical}`,
        keys: ['data', 'id'],
        read: (limit, before?: { data: string; id: string }) => publicationsOfOab(s.db, [oab.canonical], { limit, before }),
        position: (r) => ({ data: r.data_disponibilizacao, id: r.id }),
        name: 'items',
        view: (items) => items.map((r) => publicationView(storedPublication(r), pub.links)),
      });
      return { data, meta: { pagination }, empty: rows.length === 0 };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/advogados/resumo',
    meta: {
      class: 'search',
      auth: true,
      charge: 'advogados.resumo',
      async: true,
      tag: TAG,
      summary: 'Summary of one exact OAB',
      description:
        'Counts deduplicated by CNJ number, kept apart: `quantidadeRecentes` (a publication in the last 90 days), `quantidadeHistoricos`, and ' +
        '`quantidadeAtivosConfirmados` (confirmed active by the case store, since a recent publication ' +
        'alone does not prove the case is running). ' +
        "Also the name variants the gazettes print and the official coverage used. `cobertura.parcial` is true while the OAB's history is being consolidated " +
        '(the counts may grow); `cobertura.completa` once it is (spec §2.3, §3.2). ' +
        `**Each call is a new charged query** (spec §4.4, §8), reported in \`meta.creditsCharged\`; an OAB with no process is free. Poll sparingly: the ` +
        `consolidation takes minutes at DJEN's 20 requests a minute. ${FRESHNESS}`,
    },
    schema: { querystring: OabQuery, data: LawyerSummary },
    handler: async (req) => {
      const oab = oabOfRequest(req.query, 'query');
      const history = await syncRecent(s, pub.ingest, oab.canonical);
      const now = s.clock.now();
      const processes = await processesOfOab(s.db, oab);
      const recentSince = brasiliaDayBefore(now, RECENT_PROCESS_DAYS);
      const recentes = processes.filter((p) => p.ultimaPublicacao !== null && p.ultimaPublicacao >= recentSince).length;
      const ativos = await confirmedActive(
        s.db,
        processes.map((p) => p.numeroCnj),
        now,
      );
      const completa = history.consolidacao === 'CONCLUIDA';
      const data = {
        oab: { estado: oab.uf, numero: `${oab.numero}${oab.suffix ?? ''}`, oab: oab.canonical },
        quantidadeProcessos: processes.length,
        quantidadeRecentes: recentes,
        quantidadeHistoricos: processes.length - recentes,
        quantidadeAtivosConfirmados: ativos.size,
        variantesNome: await nameVariants(s.db, oab),
        coberturaOficial: {
          fonte: `DJEN — Diário de Justiça Eletrônico Nacional (Comunica PJe)${s.sources.publications.info.sandbox ? ', sandbox' : ''}`,
          tribunais: await gazetteCoverage(s.db, oab),
          historicoDesde: HISTORY_START,
          observacao:
            "Only cases identified in official publications (spec §1.7), plus cases whose stored parties list this lawyer; not the lawyer's full portfolio " +
            'at the courts.',
        },
        cobertura: { parcial: !completa, completa, consolidacao: history.consolidacao, consolidadoEm: history.consolidado_em },
      };
      return {
        data,
        meta: { cobranca: 'Each call to /v1/advogados/resumo is a new charged query (spec §4.4); poll sparingly.' },
        empty: processes.length === 0,
      };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/advogados/oab/monitorar',
    meta: {
      class: 'async',
      auth: true,
      charge: OAB_SEARCH_QUERY_TYPE,
      chargeWay: 'deferred',
      success: [202],
      tag: TAG,
      summary: "Start an asynchronous search of an OAB's publications at one court",
      description:
        'Body: `tribunal`, `oab_estado`, `oab_numero` (required), `permitir_parcial`, `enviar_callback`. Answers 202 at once with a numeric `id` and ' +
        '`statusUrl` (also in `Location`); ' +
        "poll it a finite number of times until `SUCESSO` or `ERRO`. The search reads the OAB's whole DJEN history at that court. " +
        `Charged the plan's \`${OAB_SEARCH_QUERY_TYPE}\` once, when it ends in SUCESSO; ERRO is free. With \`enviar_callback\` the account webhook receives ` +
        `\`resultado_busca_oab_async\`.`,
    },
    schema: { body: OabSearchBody, data: OabSearch },
    handler: async (req, op) => {
      const auth = req.auth!;
      const court = requireCourtSigla(req.body.tribunal, 'tribunal');
      const oab = parseOabParts(req.body.oab_estado, req.body.oab_numero, { uf: 'oab_estado', numero: 'oab_numero' });
      const enviarCallback = await askedCallback(s.webhooks.configs, auth.account.id, req.body);
      // Priced by the runner (refused before any work when the plan excludes it or the balance cannot cover it); charged at SUCESSO, by the job.
      const search = await createOabSearch(s, {
        accountId: auth.account.id,
        tribunal: court.sigla,
        oab,
        permitirParcial: req.body.permitir_parcial === true,
        enviarCallback,
        requestId: req.id,
        priceCentavos: op.priceCentavos,
      });
      const statusUrl = absoluteUrl(s.config, `/v1/advogados/oab/monitoramentos/${search.id}`);
      const retryAfter = String(Math.ceil(s.config.pollAfterMs / 1000));
      return { status: 202, data: oabSearchView(search, statusUrl), headers: { location: statusUrl, 'retry-after': retryAfter } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/advogados/oab/monitoramentos/:id',
    meta: {
      class: 'lookup',
      auth: true,
      tag: TAG,
      summary: 'Status and result of an asynchronous OAB search',
      description:
        "Free. Stop polling at `SUCESSO` or `ERRO`. `resposta[].processos` is kept for compatibility (spec §9.3). Another account's id is 404 NOT_FOUND.",
    },
    schema: { params: OabSearchParams, data: OabSearch },
    handler: async (req) => {
      const search = await findOabSearch(s, req.auth!.account.id, Number(req.params.id));
      if (!search) throw new ApiError('NOT_FOUND', `No OAB search ${req.params.id} in this account.`);
      return { data: oabSearchView(search, absoluteUrl(s.config, `/v1/advogados/oab/monitoramentos/${search.id}`)) };
    },
  });
}

/** The OAB's processes with those the courts' searches found (`CONSULTA`), deduplicated by number; the courts' new ones last. */
function withCourtHits(all: OabProcess[], found: readonly string[]): OabProcess[] {
  const byCnj = new Map(all.map((p) => [p.numeroCnj, p]));
  const out = [...all];
  for (const n of found) {
    const known = byCnj.get(n);
    if (known) {
      if (!known.fontes.includes('CONSULTA')) known.fontes.push('CONSULTA');
      continue;
    }
    const p: OabProcess = {
      numeroCnj: n,
      tribunal: courtByJTr(n.slice(13, 14), n.slice(14, 16))?.sigla ?? '',
      fontes: ['CONSULTA'],
      publicacoes: 0,
      ultimaPublicacao: null,
    };
    byCnj.set(n, p);
    out.push(p);
  }
  return out;
}

interface Headline {
  classe: string | null;
  orgaoJulgador: string | null;
  anoInicio: number | null;
  poloAtivo: string | null;
  poloPassivo: string | null;
  statusProcessual: string | null;
}

/**
 * What the summary shape integrators read shows of each stored case (conventions §4.8): class, court
 * division, filing year, first party of each side and the state its last movement shows; all null for
 * a case known only from gazettes.
 */
async function headlinesOf(s: Services, numeros: string[]): Promise<Map<string, Headline>> {
  if (numeros.length === 0) return new Map();
  const [{ cases, parties }, moves] = await Promise.all([caseHeadlineRows(s.db, numeros), latestMovements(s.db, numeros)]);
  const out = new Map<string, Headline>();
  for (const c of cases) {
    const first = (JSON.parse(c.instancias) as { orgaoJulgador?: { nome?: string } | null }[])[0];
    const side = (polo: string) => parties.find((p) => p.numero_cnj === c.numero_cnj && p.polo === polo)?.nome ?? null;
    const latest = moves.get(c.numero_cnj);
    out.set(c.numero_cnj, {
      classe: c.classe_nome,
      orgaoJulgador: first?.orgaoJulgador?.nome ?? null,
      anoInicio: c.data_ajuizamento ? Number(c.data_ajuizamento.slice(0, 4)) : null,
      poloAtivo: side('ATIVO'),
      poloPassivo: side('PASSIVO'),
      statusProcessual: latest ? situacaoOf({ codigo: latest.codigo }) : null,
    });
  }
  return out;
}
