/**
 * The account's case monitors and radars: status, next check, next charge, and deactivation through
 * the same function as the API's DELETEs (platform/monitoring/lifecycle.ts removeOwnMonitor, on each
 * kind's plan). Both lists newest first, PAGE rows at a time, each with its own "older" link
 * (`?processos_antes=` / `?radares_antes=`: the last row shown, `criado_em~id`) that keeps the other
 * list where it was.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatCnj } from '../../../platform/identifiers/cnj.ts';
import { removeOwnMonitor, type MonitorAsk, type MonitorPlan } from '../../../platform/monitoring/lifecycle.ts';
import { monitorReads, type PaidMonitorRow } from '../../../platform/monitoring/tables.ts';
import { CASE_MONITOR_READS, CASE_MONITORS } from '../../monitors/parts.ts';
import { RADARS } from '../../radars/parts.ts';
import { formatReais } from '../../../platform/format.ts';
import { csrfField, html, table, when } from '../html.ts';
import { filter, redirect, sendPage, signedIn, type ConsoleParts } from '../parts.ts';
import { origin } from '../session.ts';

const PAGE = 100;
/** The radars' counts: every radar, deactivated ones too (the radars' list shows them). */
const RADAR_READS = monitorReads('radars', {}, 'DESATIVADO');
const CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z~[A-Za-z0-9_]{1,60}$/;

type List = 'processos' | 'radares';

/** Each list's cursor as the request gave it (`criado_em~id` of the last row shown), when well formed. */
function cursors(req: FastifyRequest): Record<List, string | undefined> {
  return { processos: filter(req, 'processos_antes', CURSOR), radares: filter(req, 'radares_antes', CURSOR) };
}

/** Where a list starts: after the row its cursor names, or at the newest. */
function position(cursor: string | undefined): { criadoEm: string; id: string } | undefined {
  if (!cursor) return undefined;
  const split = cursor.indexOf('~');
  return { criadoEm: cursor.slice(0, split), id: cursor.slice(split + 1) };
}

/** The page's URL with one list moved on past `last` (the other list's position kept as it is). */
function olderLink(current: Record<List, string | undefined>, list: List, last: { criado_em: string; id: string }): string {
  const query = new URLSearchParams();
  for (const [name, cursor] of Object.entries({ ...current, [list]: `${last.criado_em}~${last.id}` })) {
    if (cursor) query.set(`${name}_antes`, cursor);
  }
  return `/console/monitoramentos?${query}`;
}

export function monitorsPage(app: FastifyInstance, m: ConsoleParts): void {
  app.get('/monitoramentos', async (req, reply) => {
    const who = signedIn(req);
    const csrf = who.session.csrf_token;
    const at = cursors(req);
    const radarsAfter = position(at.radares);
    const [monitorRows, radarRows, totals] = await Promise.all([
      CASE_MONITOR_READS.list(m.s.db, who.account.id, { limit: PAGE + 1, before: position(at.processos) }),
      m.radars.store.list(who.account.id, PAGE + 1, radarsAfter && { c: radarsAfter.criadoEm, id: radarsAfter.id }),
      countLists(m, who.account.id),
    ]);
    const monitors = monitorRows.slice(0, PAGE);
    const radars = radarRows.slice(0, PAGE);
    const more = (rows: unknown[], list: List, shown: { criado_em: string; id: string }[], label: string) =>
      rows.length > PAGE ? html`<p><a href="${olderLink(at, list, shown.at(-1)!)}">${label}</a></p>` : '';
    const off = (path: string, label: string) =>
      html`<form method="post" action="${path}" data-confirmar="Desativar ${label}? Verificações e cobranças param.">${csrfField(csrf)}
<button type="submit" class="perigo" aria-label="Desativar ${label}">Desativar</button></form>`;
    return sendPage(
      req,
      reply,
      { title: 'Monitoramentos', section: 'monitoramentos' },
      html`
${at.processos || at.radares ? html`<p><a href="/console/monitoramentos">Voltar aos mais recentes</a></p>` : ''}
<h2>Processos monitorados (${totals.monitors.toLocaleString('pt-BR')})</h2>
${table(
  'Monitoramentos de processos (removidos não aparecem)',
  ['Processo', 'Status', 'Verificações', 'Próxima verificação', 'Próxima cobrança', 'Preço', ''],
  monitors.map((x) => [
    html`<code>${formatCnj(x.numero_cnj)}</code>`,
    x.status,
    String(x.verificacoes),
    when(x.proxima_verificacao_em),
    x.status === 'ATIVO' ? when(x.proxima_cobranca_em) : '—',
    formatReais(x.preco_centavos),
    off(`/console/monitoramentos/processos/${x.id}/desativar`, `o monitoramento de ${formatCnj(x.numero_cnj)}`),
  ]),
  at.processos ? 'Nenhum monitoramento mais antigo.' : 'Nenhum processo monitorado.',
)}
${more(monitorRows, 'processos', monitors, 'Monitoramentos mais antigos')}
<h2>Radares de processos novos (${totals.radars.toLocaleString('pt-BR')})</h2>
${table(
  'Radares',
  ['Termo', 'Tipo', 'Status', 'Resultados', 'Próxima verificação', 'Próxima cobrança', ''],
  radars.map((r) => [
    r.termo,
    r.tipo,
    r.status,
    String(r.resultados_total),
    r.status === 'ATIVO' ? when(r.proxima_verificacao_em) : '—',
    r.status === 'DESATIVADO' ? '—' : when(r.proxima_cobranca_em),
    r.status === 'DESATIVADO' ? '' : off(`/console/monitoramentos/radares/${r.id}/desativar`, `o radar ${r.termo}`),
  ]),
  at.radares ? 'Nenhum radar mais antigo.' : 'Nenhum radar.',
)}
${more(radarRows, 'radares', radars, 'Radares mais antigos')}`,
    );
  });

  deactivation(app, m, 'processos', CASE_MONITORS, 'monitoramento.desativar', (monitor) => ({ numeroCnj: monitor.numero_cnj }));
  deactivation(app, m, 'radares', RADARS, 'radar.desativar', (radar) => ({ termo: radar.termo }));
}

/** POST /monitoramentos/<list>/:id/desativar: the account's monitor of `plan` removed, audited as `action` with `details`. */
function deactivation<R extends PaidMonitorRow, A extends MonitorAsk>(
  app: FastifyInstance,
  m: ConsoleParts,
  list: List,
  plan: MonitorPlan<R, A>,
  action: string,
  details: (monitor: R) => Record<string, unknown>,
): void {
  app.post<{ Params: { id: string } }>(`/monitoramentos/${list}/:id/desativar`, async (req, reply) => {
    const who = signedIn(req);
    const monitor = await removeOwnMonitor(m.s, plan, who.account.id, req.params.id);
    if (!monitor) return notFound(req, reply);
    await m.store.audit({
      accountId: who.account.id,
      userId: who.user.id,
      actor: who.user.email,
      action,
      target: monitor.id,
      details: details(monitor),
      origin: origin(req),
    });
    return redirect(reply, '/console/monitoramentos', 'monitor-desativado');
  });
}

/** How many monitors (removed ones aside, as in the list) and radars the account has. */
async function countLists(m: ConsoleParts, accountId: string): Promise<{ monitors: number; radars: number }> {
  const [monitors, radars] = await Promise.all([CASE_MONITOR_READS.count(m.s.db, accountId, 'live'), RADAR_READS.count(m.s.db, accountId, 'all')]);
  return { monitors, radars };
}

function notFound(req: Parameters<typeof sendPage>[0], reply: Parameters<typeof sendPage>[1]) {
  return sendPage(
    req,
    reply,
    { title: 'Monitoramentos', section: 'monitoramentos', flash: { kind: 'erro', text: 'Monitoramento não encontrado nesta conta.' } },
    html`<p><a href="/console/monitoramentos">Voltar</a></p>`,
    404,
  );
}
