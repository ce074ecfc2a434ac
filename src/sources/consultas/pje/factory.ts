/**
 * The PJe classic client as a court's consultation client (client.ts): one PjeClassicClient per case,
 * over a session of the court's per-host pool (budgets, timeouts, User-Agent, retries, the challenge
 * detector). The session keeps the cookies and follows redirects itself; the PJe client's own cookie
 * header is dropped so that cookies set on a redirect hop are not lost.
 */
import { baseUrlFor, type ConsultaClientFactory } from '../client.ts';
import type { ConsultaSession } from '../http.ts';
import { PjeClassicClient, type PjeHttp } from './client.ts';

function overSession(session: ConsultaSession): PjeHttp {
  return async (req, signal) => {
    const { cookie: _cookie, ...headers } = req.headers ?? {};
    const page = req.method === 'POST'
      ? await session.post(req.url, new URLSearchParams(req.body ?? ''), { signal, headers })
      : await session.get(req.url, { signal, headers });
    return { status: page.status, headers: page.headers, body: page.text };
  };
}

export const createPjeClient: ConsultaClientFactory = (ctx) => ({
  fetchCase(numeroCnj, signal) {
    const { base } = baseUrlFor(ctx, numeroCnj);
    const http = overSession(ctx.http.session(ctx.source, ctx.label));
    return new PjeClassicClient({ baseUrl: base, http, source: ctx.source }).fetchCase(numeroCnj, signal);
  },
});
