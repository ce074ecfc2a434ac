/** The account's audit log: who changed what, when and from where (every console change writes one line). */
import type { FastifyInstance } from 'fastify';
import { html, table, when } from '../html.ts';
import { filter, sendPage, signedIn, type ConsoleParts } from '../parts.ts';

const PAGE = 100;

export function auditPage(app: FastifyInstance, m: ConsoleParts): void {
  app.get('/auditoria', async (req, reply) => {
    const who = signedIn(req);
    const antes = filter(req, 'antes', /^[A-Za-z0-9_]{1,60}$/);
    const rows = await m.store.auditLog(who.account.id, PAGE + 1, antes);
    const shown = rows.slice(0, PAGE);
    return sendPage(
      req,
      reply,
      { title: 'Auditoria', section: 'auditoria' },
      html`
${table(
  'Alterações feitas pelo console, da mais recente',
  ['Quando', 'Quem', 'O quê', 'Objeto', 'Detalhes', 'De onde'],
  shown.map((a) => [
    when(a.created_at),
    a.actor,
    html`<code>${a.action}</code>`,
    a.target ? html`<code>${a.target}</code>` : '—',
    a.details ? html`<code>${a.details}</code>` : '—',
    [a.ip ?? '—', a.user_agent ? html`<br><span class="dica">${a.user_agent}</span>` : ''],
  ]),
  'Nada registrado ainda.',
)}
${rows.length > PAGE ? html`<p><a href="/console/auditoria?antes=${shown.at(-1)!.id}">Registros mais antigos</a></p>` : ''}`,
    );
  });
}
