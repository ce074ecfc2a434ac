/** What every console page shares: its dependencies, how a page is sent, redirects with a notice, form fields. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isApiError } from '../../platform/errors.ts';
import { mensagem } from '../../platform/errors-pt.ts';
import type { Services } from '../../platform/services.ts';
import type { RadarParts } from '../radars/parts.ts';
import { layout, type Html, type PageContext } from './html.ts';
import { origin, type SignedIn } from './session.ts';
import type { ConsoleStore } from './store.ts';

export interface ConsoleParts {
  s: Services;
  store: ConsoleStore;
  radars: RadarParts;
}

/** The notices a redirect can ask the next page to show (`?aviso=`), so no text travels in a URL. */
const NOTICES: Record<string, PageContext['flash']> = {
  'chave-revogada': { kind: 'ok', text: 'Chave revogada: a API passa a recusá-la.' },
  'webhook-salvo': { kind: 'ok', text: 'Webhook salvo.' },
  'teste-entregue': { kind: 'ok', text: 'Entrega de teste feita: veja-a no histórico.' },
  'teste-falhou': { kind: 'erro', text: 'A entrega de teste falhou: veja o status e o trecho da resposta no histórico.' },
  'destino-reativado': { kind: 'ok', text: 'Destino reativado: as próximas entregas voltam a ser tentadas.' },
  'destino-nao-desativado': { kind: 'erro', text: 'Esse destino não está desativado: nada mudou.' },
  'reenvio-criado': { kind: 'ok', text: 'Reenvio criado: ele segue a mesma escada de tentativas.' },
  'monitor-desativado': { kind: 'ok', text: 'Monitoramento desativado: verificações e cobranças param.' },
  'sessoes-encerradas': { kind: 'ok', text: 'Todas as outras sessões foram encerradas.' },
  'senha-definida': { kind: 'ok', text: 'Senha definida. Entre com seu e-mail e a nova senha.' },
};

export function notice(req: FastifyRequest): PageContext['flash'] {
  const code = (req.query as Record<string, unknown> | undefined)?.aviso;
  return typeof code === 'string' ? (NOTICES[code] ?? null) : null;
}

export function signedIn(req: FastifyRequest): SignedIn {
  return req.console!;
}

/** One line of the account's audit log for what the signed-in person just did, from where they did it. */
export async function auditSignedIn(
  m: ConsoleParts,
  req: FastifyRequest,
  action: string,
  more: { target?: string | null; details?: Record<string, unknown> | null } = {},
): Promise<void> {
  const who = signedIn(req);
  await m.store.audit({ accountId: who.account.id, userId: who.user.id, actor: who.user.email, action, ...more, origin: origin(req) });
}

/** A whole page for the signed-in person. */
export function sendPage(
  req: FastifyRequest,
  reply: FastifyReply,
  ctx: Omit<PageContext, 'email' | 'accountName' | 'csrf'>,
  body: Html,
  status = 200,
): FastifyReply {
  const who = req.console;
  const page = layout(
    { ...ctx, flash: ctx.flash === undefined ? notice(req) : ctx.flash, email: who?.user.email, accountName: who?.account.name, csrf: who?.session.csrf_token },
    body,
  );
  return reply.code(status).type('text/html; charset=utf-8').send(page.text);
}

/** After a change: 303 to a page, with a notice code. */
export function redirect(reply: FastifyReply, path: string, aviso?: keyof typeof NOTICES): FastifyReply {
  return reply
    .code(303)
    .header('location', aviso ? `${path}${path.includes('?') ? '&' : '?'}aviso=${aviso}` : path)
    .send();
}

/** An API error as the person reads it (Portuguese); anything else is rethrown. */
export function problemText(err: unknown): string {
  if (isApiError(err)) return mensagem(err.code, err.details);
  throw err;
}

/** A form field as one trimmed string (the first, if repeated); undefined when absent. */
export function field(req: FastifyRequest, name: string): string | undefined {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === 'string' ? one.trim() : undefined;
}

/** Every value of a repeated form field (checkboxes). */
export function fields(req: FastifyRequest, name: string): string[] {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string');
}

/** The filters a list was asked with, as a query string: the absent ones left out. */
export function filterQuery(values: Record<string, string | undefined>): URLSearchParams {
  return new URLSearchParams(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined));
}

/**
 * A console list's page from `size + 1` rows read newest first: the first `size` shown, and when there
 * are more, the link to the older ones (`path` with the same filters, `antes` the last row shown).
 */
export function olderPage<R>(rows: readonly R[], size: number, path: string, query: URLSearchParams, antes: (last: R) => string) {
  const shown = rows.slice(0, size);
  const last = shown.at(-1);
  const older = rows.length > size && last !== undefined ? `${path}?${new URLSearchParams([...query, ['antes', antes(last)]])}` : null;
  return { shown, older };
}

/** A query-string filter as one string, or undefined when absent or empty. */
export function filter(req: FastifyRequest, name: string, pattern?: RegExp): string | undefined {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  if (typeof v !== 'string' || v === '') return undefined;
  return pattern && !pattern.test(v) ? undefined : v;
}

export const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Plans a person reads about by name: the price file's keys are identifiers (`padrao`), not words. */
const PLAN_NAMES: Record<string, string> = { padrao: 'Padrão', sandbox: 'Sandbox', consulta: 'Consulta' };

/** A plan's name for the console: the known ones in Portuguese, any other key with its first letter raised. */
export function planName(plan: string): string {
  return PLAN_NAMES[plan] ?? plan.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
}
