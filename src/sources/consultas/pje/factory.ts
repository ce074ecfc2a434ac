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
  async search(query, max, signal) {
    const http = overSession(ctx.http.session(ctx.source, ctx.label));
    const hits = await new PjeClassicClient({ baseUrl: ctx.urls[1], http, source: ctx.source }).search(query, max, signal);
    // The table says PJe offers it; a deployment whose form lacks the field fails with that reason, never "no hit".
    if (!hits) throw ctx.http.session(ctx.source, ctx.label).fail('unavailable', `${ctx.court.sigla}'s search form has no field for a search by ${query.kind}`);
    return hits;
  },
});
