/**
 * The console under /console, apart from /v1 (spec §1 rule 1: the API is for servers): HTML pages and
 * form posts, its own error and not-found pages, strict security headers (no script or style from
 * elsewhere, no framing, no referrer to other sites: invitation links carry a token), and one gate before every
 * handler: public pages pass; any other needs a session, and any change a valid CSRF token.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.ts';
import { html } from './html.ts';
import { auditPage } from './pages/audit.ts';
import { authPages } from './pages/auth.ts';
import { keysPage } from './pages/keys.ts';
import { monitorsPage } from './pages/monitors.ts';
import { overviewPage } from './pages/overview.ts';
import { statementPage } from './pages/statement.ts';
import { webhookPages } from './pages/webhook.ts';
import { sendPage, type ConsoleParts } from './parts.ts';
import { csrfOk, loadSession } from './session.ts';

const FORM_LIMIT_BYTES = 64 * 1024;
/** Reachable without a session (the rest of /console needs one). */
const PUBLIC = [/^\/console\/?$/, /^\/console\/entrar$/, /^\/console\/convite\/[^/]+$/];

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors " +
    "'none'; base-uri 'none'; object-src 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // Invitation links carry their token: never sent to another site (and Origin stays readable).
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

export function consolePlugin(m: ConsoleParts) {
  return async (scope: FastifyInstance) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_req, body, done) =>
      done(null, parseForm(String(body))),
    );
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    scope.addHook('onSend', async (_req, reply, payload) => {
      reply.headers(SECURITY_HEADERS);
      return payload;
    });
    scope.addHook('preHandler', async (req, reply) => gate(req, reply, m));
    scope.setErrorHandler((err: FastifyError, req, reply) => errorPage(err, req, reply));
    scope.setNotFoundHandler((req, reply) =>
      sendPage(req, reply, { title: 'Página não encontrada' }, html`<p><a href="/console/visao-geral">Ir para a visão geral</a></p>`, 404),
    );

    scope.get('/', async (req, reply) =>
      reply
        .code(303)
        .header('location', req.console ? '/console/visao-geral' : '/console/entrar')
        .send(),
    );
    scope.get('/assets/console.css', async (_req, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CONSOLE_CSS),
    );
    scope.get('/assets/console.js', async (_req, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CONSOLE_JS),
    );
    authPages(scope, m);
    overviewPage(scope, m);
    keysPage(scope, m);
    webhookPages(scope, m);
    monitorsPage(scope, m);
    statementPage(scope, m);
    auditPage(scope, m);
  };
}

async function gate(req: FastifyRequest, reply: FastifyReply, m: ConsoleParts): Promise<FastifyReply | undefined> {
  const path = req.url.split('?')[0]!;
  if (path.startsWith('/console/assets/')) return undefined; // static: no session to read
  req.console = await loadSession(req, m.store, (id) => m.s.accounts.get(id));
  if (PUBLIC.some((p) => p.test(path))) return undefined;
  if (!req.console) {
    if (req.method === 'GET') return reply.code(303).header('location', '/console/entrar').send();
    return sendPage(
      req,
      reply,
      { title: 'Sessão encerrada', flash: { kind: 'erro', text: 'Sua sessão terminou: entre de novo.' } },
      html`<p><a href="/console/entrar">Entrar</a></p>`,
      401,
    );
  }
  if (req.method !== 'GET' && !csrfOk(req, req.console)) {
    return sendPage(
      req,
      reply,
      {
        title: 'Ação recusada',
        flash: { kind: 'erro', text: 'Esta ação não veio de uma página do console (ou a página expirou): recarregue a página e tente de novo.' },
      },
      html`<p><a href="/console/visao-geral">Voltar</a></p>`,
      403,
    );
  }
  return undefined;
}

function errorPage(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) req.log.error({ err, route: req.routeOptions.url }, 'console page failed');
  const text =
    status === 413
      ? 'O formulário enviado é grande demais.'
      : status === 415
        ? 'Envie o formulário pela página do console.'
        : status < 500
          ? 'Pedido inválido: volte à página e tente de novo.'
          : 'Algo deu errado do nosso lado; nada foi alterado pela metade. Tente de novo em instantes.';
  return sendPage(
    req,
    reply,
    { title: status === 500 ? 'Erro interno' : 'Pedido inválido', flash: { kind: 'erro', text } },
    html`<p><a href="/console/visao-geral">Voltar ao console</a></p>`,
    status,
  );
}

/** `a=1&b=2&b=3` → { a: '1', b: ['2', '3'] }. */
function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(body)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
