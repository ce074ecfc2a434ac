/**
 * Judicial-publication monitors (spec §4.8): follow a term, an OAB or a case number in the national
 * gazette (DJEN), optionally in some courts only. Creation is charged (`monitor.publicacoes`, per
 * 30-day period); reading, listing and deactivating are free. The publication cycle
 * (publications/cycle.ts) asks DJEN for them and the ingest emits the events.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../platform/services.ts';
import { paidMonitorRoutes } from '../../platform/monitoring/paid-monitor-routes.ts';
import { courtFilter, targetOf } from './input.ts';
import { PUBLICATION_MONITORS } from './lifecycle.ts';
import { monitorView } from './present.ts';
import { sourceFilter } from './sources.ts';
import { MONITOR_QUERY_TYPES, MONITOR_READS } from './store.ts';
import { CreatePublicationMonitorBody, PublicationMonitorView } from './schemas.ts';

const TAG = 'Monitoramento';
const PATH = '/v1/monitoramentos/publicacoes';
const QUERY_TYPE = MONITOR_QUERY_TYPES.PUBLICACOES;

const RULES =
  'Checked every TRAMITA_MONITOR_INTERVAL_MS against DJEN (the first time for the last 30 days, then from 3 days before ' +
  'the previous check: DJEN publishes late). ' +
  'Each new publication it matches (the term anywhere in the text, parties or lawyers, accents and case ignored; the OAB in any spelling ' +
  'the court printed; the case by number), ' +
  'dated from its `desde` (the creation day) on, emits one event to `webhook_url` when set, else to the account webhook, and to GET /v1/eventos: ' +
  '`publicacao_judicial_nova` for TERMO and OAB monitors, `diario_movimentacao_nova` for PROCESSO monitors (spec §6.4). ' +
  'Older publications are history: no event. ' +
  'Price: `monitor.publicacoes`, charged at creation and every 30 days while ATIVO; a renewal the balance does not cover suspends ' +
  'it (SUSPENSO) until it is created again.';

export function publicationMonitorRoutes(app: FastifyInstance, s: Services): void {
  paidMonitorRoutes(app, s, {
    lifecycle: PUBLICATION_MONITORS,
    path: PATH,
    tag: TAG,
    charge: QUERY_TYPE,
    listing: 'monitoramentos.publicacoes',
    noun: 'publication monitor',
    names: { one: 'a judicial-publication monitor', many: 'judicial-publication monitors', removal: 'Deactivate' },
    schemas: { body: CreatePublicationMonitorBody, view: PublicationMonitorView },
    texts: {
      create:
        'Body: `tipo` (TERMO, OAB or PROCESSO; inferred when absent) and its value: `termo` (3–200 characters), `oab` or ' +
        '`oab_estado` + `oab_numero`, or `numero_cnj` ' +
        '(two at once: 400 INVALID_PARAMETER); `tribunais` (court siglas; 422 UNKNOWN_COURT otherwise); `fontes` (DJEN, STF, TSE, TRE-<UF>: the gazettes ' +
        'watched; absent: all); `webhook_url` (HTTPS; INVALID_WEBHOOK_URL otherwise). ' +
        "201 with the new monitor, charged. The account's live monitor of the same target is returned instead (200, free, `reused: true`, a given " +
        '`webhook_url` / `tribunais` / `fontes` applied); ' +
        `a SUSPENSO one is reactivated (200, charged, a new period). ${RULES}`,
      read: "Free. Its target, courts, status, publications matched, next check and charge, and the last error. Another account's id is 404 NOT_FOUND.",
      remove:
        'Free. Status REMOVIDO: checks, charges and events stop at once; the monitor stays readable (spec §3.2: no physical deletion). ' +
        "Deactivating it again returns it unchanged. Another account's id is 404 NOT_FOUND.",
    },
    target: (body) => ({ origem: 'PUBLICACOES', target: targetOf(body), tribunais: courtFilter(body.tribunais), fontes: sourceFilter(body.fontes) }) as const,
    view: monitorView,
    created: (c) => ({ ...monitorView(c.monitor), reused: c.kind === 'existing' }),
    store: MONITOR_READS.PUBLICACOES,
  });
}
