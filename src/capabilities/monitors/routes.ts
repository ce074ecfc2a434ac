/**
 * Case monitor endpoints (spec §4.8): create (charged), list, read and remove (free). The checks
 * themselves run in the cycle job (check.ts), renewals with them; the lifecycle is platform/monitoring/lifecycle.ts on CASE_MONITORS,
 * the routes platform/monitoring/paid-monitor-routes.ts with what is the case monitors' own: the texts and the body's case.
 */
import type { FastifyInstance } from 'fastify';
import type { Court } from '../../platform/courts/table.ts';
import { courtBySigla } from '../../platform/courts/table.ts';
import { ApiError } from '../../platform/errors.ts';
import { parseCnjWithCourt, type Cnj } from '../../platform/identifiers/cnj.ts';
import type { Services } from '../../platform/services.ts';
import { paidMonitorRoutes } from '../../platform/monitoring/paid-monitor-routes.ts';
import { CASE_MONITORS, MONITOR_QUERY_TYPE } from './lifecycle.ts';
import { CreateMonitorBody, Monitor } from './schemas.ts';
import { monitorView } from './present.ts';
import { CASE_MONITOR_READS } from './store.ts';

const TAG = 'Monitoramento';
const PATH = '/v1/monitoramentos/processos';

const RULES =
  'Frequency: `HORARIA`, `DIARIA` (default), `SEMANAL` and `MENSAL` check every 1, 24, 168 and 720 × TRAMITA_MONITOR_INTERVAL_MS (1 h by default). ' +
  "Price: the plan's `monitor.processo` (`preco`), charged at creation and again every 30 days while ATIVO; a renewal the balance does not cover " +
  'suspends the monitor (SUSPENSO: no checks, no charges, no news) until it is created again. ' +
  'Events (spec §6.4), to `webhook_url` when set, else the account webhook, and to the event feed: `processo_encontrado` (first found, or found again), ' +
  "`processo_nao_encontrado` (once per transition), `nova_movimentacao` (new movements, whoever's query or check found them), " +
  '`atualizacao_processo_concluida` (a check stored new movements), `processo_verificado` (every completed check, with `novasMovimentacoes` and `situacao`). ' +
  'A check whose source failed emits nothing, sets `ultimoErro` and is tried again at the next cycle.';

export function monitorRoutes(app: FastifyInstance, s: Services): void {
  paidMonitorRoutes(app, s, {
    lifecycle: CASE_MONITORS,
    path: PATH,
    tag: TAG,
    charge: MONITOR_QUERY_TYPE,
    listing: 'monitoramentos.processos',
    noun: 'case monitor',
    names: { one: 'a case monitor', many: 'case monitors', removal: 'Remove' },
    schemas: { body: CreateMonitorBody, view: Monitor },
    texts: {
      create:
        `Body: \`numero_cnj\` (or \`numeroCnj\`), \`webhook_url\` (HTTPS; INVALID_WEBHOOK_URL otherwise), \`frequencia\`, \`tribunal\` (optional; the case's ` +
        `own court). 201 with the new monitor, checked at the next cycle. ` +
        "The account's live monitor of the same case is returned instead (200, free), with a changed `webhook_url` or `frequencia` applied; a SUSPENSO one " +
        'is reactivated (200, charged, a new period). ' +
        `STF cases are 422 COURT_NOT_COVERED (no DataJud index). ${RULES}`,
      remove:
        'Free. Status REMOVIDO: checks, charges and events stop at once; the monitor stays readable (spec §3.2: no physical deletion). ' +
        "Removing it again returns it unchanged. Another account's id is 404 NOT_FOUND.",
    },
    target: (body) => ({ cnj: monitoredCase(body), frequencia: body.frequencia }),
    view: monitorView,
    store: CASE_MONITOR_READS,
  });
}

/** The case of the body (`numero_cnj` or its twin `numeroCnj`): 400 when invalid, 422 when DataJud has no index for its court. */
function monitoredCase(body: { numero_cnj?: string; numeroCnj?: string; tribunal?: string | null }): Cnj & { court: Court } {
  const given = (['numero_cnj', 'numeroCnj'] as const).filter((f) => body[f] !== undefined);
  if (given.length === 0)
    throw new ApiError('MISSING_PARAMETER', 'Send the case number as `numero_cnj` (or `numeroCnj`).', { field: 'numero_cnj', in: 'body' });
  const [cnj, twin] = given.map((f) => parseCnjWithCourt(body[f], f));
  if (twin && twin.digits !== cnj.digits)
    throw new ApiError('INVALID_PARAMETER', '`numero_cnj` and `numeroCnj` name different cases; send one.', { field: 'numeroCnj', in: 'body' });
  if (!cnj.court.datajudAlias)
    throw new ApiError('COURT_NOT_COVERED', `${cnj.court.sigla} has no DataJud index, so its cases cannot be monitored.`, { tribunal: cnj.court.sigla });
  if (body.tribunal != null) {
    const asked = courtBySigla(body.tribunal);
    if (!asked) throw new ApiError('UNKNOWN_COURT', `"${body.tribunal}" is not a court sigla: see GET /v1/tribunais.`, { field: 'tribunal', in: 'body' });
    if (asked.sigla !== cnj.court.sigla) {
      throw new ApiError(
        'INVALID_PARAMETER',
        `${cnj.masked} is a case of ${cnj.court.sigla}, which DataJud indexes with every instance of it; \`tribunal\` ${asked.sigla} ` +
          `cannot be followed for it.`,
        { field: 'tribunal', in: 'body' },
      );
    }
  }
  return cnj;
}
