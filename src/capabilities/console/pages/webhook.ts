/**
 * The account webhook (spec §2.4) and its delivery history (spec §6.5), through the same functions
 * as the API (webhooks/actions.ts): URL (HTTPS to a public address, INVALID_WEBHOOK_URL otherwise),
 * bearer token (never shown back), HMAC secret (regenerated and shown once), format, active, events;
 * a test delivery; the history filtered by status, event and day, every attempt, and resend.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PayloadFormat, WebhookAttemptsTable, WebhookConfigsTable, WebhookDeliveriesTable } from '../../../platform/db/schema.ts';
import { EVENT_KINDS, EVENT_NAMES } from '../../../platform/events/kinds.ts';
import { brasiliaDayStart } from '../../../platform/format.ts';
import { enabledKinds } from '../../../platform/webhooks/planner.ts';
import type { EndpointHealthView } from '../../../platform/webhooks/endpoint-health.ts';
import { DELIVERY_STATUSES, reenableEndpoint, resendDelivery, sendTestDelivery, updateWebhook } from '../../webhooks/parts.ts';
import { csrfField, html, shownOnce, table, when, type Html } from '../html.ts';
import { auditSignedIn, DAY, field, fields, filter, filterQuery, olderPage, problemText, redirect, sendPage, signedIn, type ConsoleParts } from '../parts.ts';

const FORMATS: PayloadFormat[] = ['NORMALIZED', 'RAW', 'BOTH'];
const STATUSES = DELIVERY_STATUSES;
const PAGE = 50;

export function webhookPages(app: FastifyInstance, m: ConsoleParts): void {
  app.get('/webhook', async (req, reply) => {
    const { config, secret } = await m.s.webhooks.configs.ensure(signedIn(req).account.id);
    return configPage(req, reply, m, config, { shown: secret ? secretShown(secret) : undefined });
  });

  app.post('/webhook', async (req, reply) => {
    const who = signedIn(req);
    const url = field(req, 'url') ?? '';
    const token = field(req, 'token') ?? '';
    const formato = FORMATS.find((f) => f === field(req, 'formato'));
    const chosen = fields(req, 'eventos');
    const change = {
      url: url === '' ? null : url,
      token: field(req, 'remover_token') === 'sim' ? null : token === '' ? undefined : token,
      formato,
      ativo: field(req, 'ativo') === 'sim',
      nomesLegados: field(req, 'nomes_legados') === 'sim',
      // Every kind checked means "every kind", new ones included (null), as the API's default.
      eventos: chosen.length === EVENT_NAMES.length ? null : chosen,
    };
    try {
      await updateWebhook(m.s, who.account.id, change);
    } catch (err) {
      const { config } = await m.s.webhooks.configs.ensure(who.account.id);
      return configPage(req, reply, m, config, { error: problemText(err) }, 400);
    }
    await auditSignedIn(m, req, 'webhook.alterar', {
      details: {
        url: change.url,
        formato: change.formato,
        ativo: change.ativo,
        eventos: change.eventos,
        nomesLegados: change.nomesLegados,
        token: change.token === null ? 'removido' : change.token ? 'alterado' : 'mantido',
      },
    });
    return redirect(reply, '/console/webhook', 'webhook-salvo');
  });

  app.post('/webhook/segredo', async (req, reply) => {
    const who = signedIn(req);
    const { config, secret } = await m.s.webhooks.configs.regenerateSecret(who.account.id);
    await auditSignedIn(m, req, 'webhook.segredo', { details: { prefixo: config.secret_prefix } });
    return configPage(req, reply, m, config, { shown: secretShown(secret) });
  });

  app.post('/webhook/teste', async (req, reply) => {
    const who = signedIn(req);
    let delivered: boolean;
    try {
      ({ delivered } = await sendTestDelivery(m.s, who.account.id));
    } catch (err) {
      const { config } = await m.s.webhooks.configs.ensure(who.account.id);
      return configPage(req, reply, m, config, { error: problemText(err) }, 422);
    }
    await auditSignedIn(m, req, 'webhook.teste', { details: { entregue: delivered } });
    return redirect(reply, '/console/entregas', delivered ? 'teste-entregue' : 'teste-falhou');
  });

  app.post('/webhook/destinos/reativar', async (req, reply) => {
    const who = signedIn(req);
    const url = field(req, 'url') ?? '';
    const resend = field(req, 'reenviar') === 'sim';
    const done = await reenableEndpoint(m.s, who.account.id, url, resend);
    if (!done.reenabled) return redirect(reply, '/console/webhook', 'destino-nao-desativado');
    await auditSignedIn(m, req, 'webhook.reativar', { details: { url, reenviadas: done.resent, descartadas: done.discarded } });
    return redirect(reply, '/console/webhook', 'destino-reativado');
  });

  app.get('/entregas', async (req, reply) => {
    const who = signedIn(req);
    const status = STATUSES.find((s) => s === filter(req, 'status'));
    const evento = filter(req, 'evento', /^[a-z_]{1,60}$/);
    const desde = filter(req, 'desde', DAY);
    const ate = filter(req, 'ate', DAY);
    const antes = filter(req, 'antes', /^[A-Za-z0-9_]{1,60}$/);
    // Days in Brasília, as the page shows times.
    const rows = await m.s.webhooks.deliveries.list(who.account.id, {
      status,
      event: evento,
      before: antes,
      limit: PAGE + 1,
      since: desde ? brasiliaDayStart(desde) : undefined,
      until: ate ? brasiliaDayStart(ate, 1) : undefined,
    });
    const { shown, older } = olderPage(rows, PAGE, '/console/entregas', filterQuery({ status, evento, desde, ate }), (last) => last.id);
    const attempts = await m.s.webhooks.deliveries.attempts(shown.map((d) => d.id));
    return sendPage(
      req,
      reply,
      { title: 'Entregas do webhook', section: 'entregas' },
      html`
<form method="get" action="/console/entregas" class="cartao linha" aria-label="Filtros">
  <div><label for="status">Status</label>
    <select id="status" name="status"><option value="">todos</option>
      ${STATUSES.map((s) => html`<option${s === status ? html` selected` : ''}>${s}</option>`)}</select></div>
  <div><label for="evento">Evento</label>
    <select id="evento" name="evento"><option value="">todos</option>
      ${EVENT_NAMES.map((e) => html`<option${e === evento ? html` selected` : ''}>${e}</option>`)}</select></div>
  <div><label for="desde">De</label><input id="desde" name="desde" type="date" value="${desde ?? ''}"></div>
  <div><label for="ate">Até</label><input id="ate" name="ate" type="date" value="${ate ?? ''}"></div>
  <div><button type="submit">Filtrar</button></div>
</form>
${table(
  'Entregas, da mais recente',
  ['Criada', 'Evento', 'Status', 'Tentativas', 'Destino', 'Próxima tentativa', 'Tentativas em detalhe', ''],
  shown.map((d) => [
    when(d.created_at),
    html`<code>${d.event_name}</code>`,
    d.status,
    `${d.attempts}/${d.max_attempts}`,
    d.url ?? 'URL da conta',
    when(d.next_attempt_at),
    attemptsDetail(d, attempts.get(d.id) ?? []),
    html`<form method="post" action="/console/entregas/${d.id}/reenviar">${csrfField(who.session.csrf_token)}
<button type="submit" class="secundario" aria-label="Reenviar a entrega ${d.id}">Reenviar</button></form>`,
  ]),
  'Nenhuma entrega com esses filtros.',
)}
${older ? html`<p><a href="${older}">Entregas mais antigas</a></p>` : ''}`,
    );
  });

  app.post<{ Params: { id: string } }>('/entregas/:id/reenviar', async (req, reply) => {
    const who = signedIn(req);
    let id: string;
    try {
      id = await resendDelivery(m.s, who.account.id, req.params.id);
    } catch (err) {
      return sendPage(
        req,
        reply,
        { title: 'Entregas do webhook', section: 'entregas', flash: { kind: 'erro', text: problemText(err) } },
        html`<p><a href="/console/entregas">Voltar ao histórico</a></p>`,
        404,
      );
    }
    await auditSignedIn(m, req, 'entrega.reenviar', { target: req.params.id, details: { novaEntrega: id } });
    return redirect(reply, '/console/entregas', 'reenvio-criado');
  });
}

function attemptItem(a: WebhookAttemptsTable): Html {
  const answer = a.status_code ? `HTTP ${a.status_code}` : 'sem resposta';
  const latency = a.latency_ms !== null ? `, ${a.latency_ms} ms` : '';
  const error = a.error ? html`, <span>${a.error}</span>` : '';
  const next = a.next_attempt_at ? `, próxima em ${when(a.next_attempt_at)}` : '';
  const excerpt = a.response_excerpt ? html`<pre>${a.response_excerpt}</pre>` : '';
  return html`<li>${when(a.started_at)}: ${answer}${latency}${error}${next}${excerpt}</li>`;
}

function attemptsDetail(d: WebhookDeliveriesTable, attempts: WebhookAttemptsTable[]): Html {
  if (attempts.length === 0) return html`<span class="dica">nenhuma ainda</span>`;
  return html`<details><summary>${attempts.length} tentativa(s)${d.last_status_code ? html`, último HTTP ${d.last_status_code}` : ''}</summary>
<ol>${attempts.map(attemptItem)}</ol>
</details>`;
}

/** Endpoints failing or disabled (endpoint health): a disabled one is re-enabled here, optionally resending what it kept. */
function endpointsSection(rows: EndpointHealthView[], csrf: string): Html | string {
  if (rows.length === 0) return '';
  return html`<section class="cartao" aria-labelledby="destinos-titulo">
<h2 id="destinos-titulo">Destinos com falha</h2>
<p class="dica">Um destino que falha em todas as entregas pelo período configurado é desativado: nada é enviado a ele, e as entregas ficam
retidas (RETIDA) até você reativá-lo.</p>
${table(
  'Destinos com falha',
  ['URL', 'Situação', 'Falhando desde', 'Último erro', 'Entregas retidas', ''],
  rows.map((e) => [
    html`<code>${e.url}</code>`,
    e.disabled_at ? html`<strong>desativado</strong> em ${when(e.disabled_at)}` : 'falhando',
    when(e.failing_since),
    e.last_error ?? '',
    String(e.held),
    e.disabled_at
      ? html`<form method="post" action="/console/webhook/destinos/reativar">${csrfField(csrf)}
<input type="hidden" name="url" value="${e.url}">
<label class="opcoes"><input type="checkbox" name="reenviar" value="sim" checked> reenviar as entregas retidas</label>
<button type="submit">Reativar</button></form>`
      : '',
  ]),
)}
</section>`;
}

function secretShown(secret: string): Html {
  return shownOnce(
    'Novo segredo HMAC',
    secret,
    'Guarde-o agora: ele não será mostrado de novo. O segredo anterior parou de valer: entregas e novas tentativas já são assinadas com este.',
  );
}

async function configPage(
  req: FastifyRequest,
  reply: FastifyReply,
  m: ConsoleParts,
  c: WebhookConfigsTable,
  extra: { shown?: Html; error?: string },
  status = 200,
): Promise<FastifyReply> {
  const csrf = signedIn(req).session.csrf_token;
  const enabled = enabledKinds(c);
  const troubled = await m.s.webhooks.endpoints.list(c.account_id);
  return sendPage(
    req,
    reply,
    { title: 'Webhook', section: 'webhook', flash: extra.error ? { kind: 'erro', text: extra.error } : undefined },
    html`
${extra.shown ?? ''}
${endpointsSection(troubled, csrf)}
<form method="post" action="/console/webhook" class="cartao">
  ${csrfField(csrf)}
  <label for="url">URL (HTTPS, endereço público)</label>
  <input id="url" name="url" type="url" value="${c.url ?? ''}" placeholder="https://exemplo.com.br/webhooks/tramita">
  <label for="token">Token bearer (enviado em Authorization)</label>
  <input id="token" name="token" type="password" autocomplete="off" placeholder="${c.token_sealed ? 'configurado: deixe em branco para manter' : 'nenhum'}">
  ${c.token_sealed ? html`<label class="opcoes"><input type="checkbox" name="remover_token" value="sim"> remover o token</label>` : ''}
  <label for="formato">Formato do corpo</label>
  <select id="formato" name="formato">${FORMATS.map((f) => html`<option${f === c.formato ? html` selected` : ''}>${f}</option>`)}</select>
  <div class="opcoes">
    <label><input type="checkbox" name="ativo" value="sim"${c.ativo === 1 ? html` checked` : ''}> ativo (desmarcado, nenhuma entrega sai)</label>
    <label><input type="checkbox" name="nomes_legados" value="sim"${c.nomes_legados === 1 ? html` checked` : ''}> enviar também os nomes legados</label>
  </div>
  <fieldset class="opcoes"><legend>Eventos enviados</legend>
    ${EVENT_NAMES.map((e) => {
      const checked = !enabled || enabled.includes(e) ? html` checked` : '';
      return html`<label title="${EVENT_KINDS[e]}"><input type="checkbox" name="eventos" value="${e}"${checked}> ${e}</label>`;
    })}
  </fieldset>
  <p><button type="submit">Salvar</button></p>
</form>
<section class="linha">
  <form method="post" action="/console/webhook/teste">${csrfField(csrf)}<button type="submit" class="secundario">Enviar um teste</button></form>
  <form method="post" action="/console/webhook/segredo" data-confirmar="Gerar um novo segredo? O atual para de valer na hora.">${csrfField(csrf)}
    <button type="submit" class="perigo">Gerar novo segredo</button></form>
</section>
<p class="dica">Segredo atual: <code>${c.secret_prefix}…</code>. Verifique as assinaturas como em docs/webhooks.md
(ou com <code>verifyWebhook</code> do SDK).</p>
${localHint(m)}`,
    status,
  );
}

/**
 * On a sandbox, someone trying the console points the webhook at a receiver on their own machine,
 * which the address guard refuses: say how to allow it (development only).
 */
function localHint(m: ConsoleParts): Html | string {
  if (!m.s.sources.cases.info.sandbox || m.s.config.webhookAllowPrivate) return '';
  return html`<p class="dica">Testando com um receptor nesta máquina (<code>http://127.0.0.1:…</code>)? Endereços locais são recusados
por segurança; em desenvolvimento, inicie o Tramita com <code>TRAMITA_WEBHOOK_ALLOW_PRIVATE=true</code>.</p>`;
}
