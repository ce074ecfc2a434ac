/**
 * The account's case monitors and radars: status, next check, next charge, and deactivation through
 * the same functions as the API's DELETEs (platform/monitoring/lifecycle.ts removeOwnMonitor, radars/parts.ts
 * deactivateRadar). Both lists newest first, PAGE rows at a time, each with its own "older" link
 * (`?processos_antes=` / `?radares_antes=`: the last row shown, `criado_em~id`) that keeps the other
 * list where it was.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatCnj } from '../../../platform/identifiers/cnj.ts';
import { removeOwnMonitor } from '../../../platform/monitoring/lifecycle.ts';
import { CASE_MONITORS } from '../../monitors/lifecycle.ts';
import { listMonitors } from '../../monitors/store.ts';
import { deactivateRadar } from '../../radars/parts.ts';
import { formatReais } from '../../../platform/format.ts';
import { csrfField, html, table, when } from '../html.ts';
import { filter, redirect, sendPage, signedIn, type ConsoleParts } from '../parts.ts';
import { origin } from '../session.ts';

const PAGE = 100;
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
      listMonitors(m.s.db, who.account.id, { limit: PAGE + 1, before: position(at.processos) }),
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

  app.post<{ Params: { id: string } }>('/monitoramentos/processos/:id/desativar', async (req, reply) => {
    const who = signedIn(req);
    const monitor = await removeOwnMonitor(m.s, CASE_MONITORS, who.account.id, req.params.id);
    if (!monitor) return notFound(req, reply);
    await m.store.audit({
      accountId: who.account.id,
      userId: who.user.id,
      actor: who.user.email,
      action: 'monitoramento.desativar',
      target: monitor.id,
      details: { numeroCnj: monitor.numero_cnj },
      origin: origin(req),
    });
    return redirect(reply, '/console/monitoramentos', 'monitor-desativado');
  });

  app.post<{ Params: { id: string } }>('/monitoramentos/radares/:id/desativar', async (req, reply) => {
    const who = signedIn(req);
    const radar = await deactivateRadar(m.radars, who.account.id, req.params.id);
    if (!radar) return notFound(req, reply);
    await m.store.audit({
      accountId: who.account.id,
      userId: who.user.id,
      actor: who.user.email,
      action: 'radar.desativar',
      target: radar.id,
      details: { termo: radar.termo },
      origin: origin(req),
    });
    return redirect(reply, '/console/monitoramentos', 'monitor-desativado');
  });
}

/** How many monitors (removed ones aside, as in the list) and radars the account has. */
async function countLists(m: ConsoleParts, accountId: string): Promise<{ monitors: number; radars: number }> {
  const [monitors, radars] = await Promise.all([
    m.s.db
      .selectFrom('case_monitors')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('status', '<>', 'REMOVIDO')
      .executeTakeFirstOrThrow(),
    m.s.db
      .selectFrom('radars')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow(),
  ]);
  return { monitors: Number(monitors.n), radars: Number(radars.n) };
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
