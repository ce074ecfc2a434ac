/**
 * The account's case monitors and radars: status, next check, next charge, and deactivation through
 * the same functions as the API's DELETEs (monitors/lifecycle.ts removeMonitor, radars/patch.ts
 * deactivateRadar). At most LIMIT of each, newest first; the API lists them all.
 */
import type { FastifyInstance } from 'fastify';
import { formatCnj } from '../../../platform/identifiers/cnj.ts';
import { removeMonitor } from '../../monitors/lifecycle.ts';
import { listMonitors } from '../../monitors/store.ts';
import { deactivateRadar } from '../../radars/patch.ts';
import { formatReais } from '../../../platform/format.ts';
import { csrfField, html, table, when } from '../html.ts';
import { redirect, sendPage, signedIn, type ConsoleParts } from '../parts.ts';
import { origin } from '../session.ts';

const LIMIT = 200;

export function monitorsPage(app: FastifyInstance, m: ConsoleParts): void {
  app.get('/monitoramentos', async (req, reply) => {
    const who = signedIn(req);
    const csrf = who.session.csrf_token;
    const [monitors, radars] = await Promise.all([listMonitors(m.s.db, who.account.id, { limit: LIMIT }), m.radars.store.list(who.account.id, LIMIT)]);
    const off = (path: string, label: string) => html`<form method="post" action="${path}" data-confirmar="Desativar ${label}? Verificações e cobranças param.">${csrfField(csrf)}<button type="submit" class="perigo" aria-label="Desativar ${label}">Desativar</button></form>`;
    return sendPage(req, reply, { title: 'Monitoramentos', section: 'monitoramentos' }, html`
<h2>Processos monitorados</h2>
${table('Monitoramentos de processos (removidos não aparecem)', ['Processo', 'Status', 'Verificações', 'Próxima verificação', 'Próxima cobrança', 'Preço', ''], monitors.map((x) => [
  html`<code>${formatCnj(x.numero_cnj)}</code>`, x.status, String(x.verificacoes), when(x.proxima_verificacao_em),
  x.status === 'ATIVO' ? when(x.proxima_cobranca_em) : '—', formatReais(x.preco_centavos),
  off(`/console/monitoramentos/processos/${x.id}/desativar`, `o monitoramento de ${formatCnj(x.numero_cnj)}`),
]), 'Nenhum processo monitorado.')}
<h2>Radares de processos novos</h2>
${table('Radares', ['Termo', 'Tipo', 'Status', 'Resultados', 'Próxima verificação', 'Próxima cobrança', ''], radars.map((r) => [
  r.termo, r.tipo, r.status, String(r.resultados_total), r.status === 'ATIVO' ? when(r.proxima_verificacao_em) : '—',
  r.status === 'DESATIVADO' ? '—' : when(r.proxima_cobranca_em),
  r.status === 'DESATIVADO' ? '' : off(`/console/monitoramentos/radares/${r.id}/desativar`, `o radar ${r.termo}`),
]), 'Nenhum radar.')}`);
  });

  app.post<{ Params: { id: string } }>('/monitoramentos/processos/:id/desativar', async (req, reply) => {
    const who = signedIn(req);
    const monitor = await removeMonitor(m.s, who.account.id, req.params.id);
    if (!monitor) return notFound(req, reply);
    await m.store.audit({ accountId: who.account.id, userId: who.user.id, actor: who.user.email, action: 'monitoramento.desativar', target: monitor.id, details: { numeroCnj: monitor.numero_cnj }, origin: origin(req) });
    return redirect(reply, '/console/monitoramentos', 'monitor-desativado');
  });

  app.post<{ Params: { id: string } }>('/monitoramentos/radares/:id/desativar', async (req, reply) => {
    const who = signedIn(req);
    const radar = await deactivateRadar(m.radars, who.account.id, req.params.id);
    if (!radar) return notFound(req, reply);
    await m.store.audit({ accountId: who.account.id, userId: who.user.id, actor: who.user.email, action: 'radar.desativar', target: radar.id, details: { termo: radar.termo }, origin: origin(req) });
    return redirect(reply, '/console/monitoramentos', 'monitor-desativado');
  });
}

function notFound(req: Parameters<typeof sendPage>[0], reply: Parameters<typeof sendPage>[1]) {
  return sendPage(req, reply, { title: 'Monitoramentos', section: 'monitoramentos', flash: { kind: 'erro', text: 'Monitoramento não encontrado nesta conta.' } }, html`<p><a href="/console/monitoramentos">Voltar</a></p>`, 404);
}
