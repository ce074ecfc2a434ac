/**
 * The PJe classic client as a court's consultation client (client.ts), over the court's per-host pool
 * (budgets, timeouts, User-Agent, retries, cookies, redirects, the challenge detector).
 */
import { baseUrlFor, grauOfCnj, type ConsultaClientFactory } from '../client.ts';
import { PjeClassicClient } from './client.ts';

export const createPjeClient: ConsultaClientFactory = (ctx) => ({
  fetchCase(numeroCnj, signal, listed, opts) {
    const { base } = baseUrlFor(ctx, numeroCnj);
    return new PjeClassicClient({ baseUrl: base, http: ctx.http, source: ctx.source, label: ctx.label }).fetchCase(numeroCnj, signal, listed, opts);
  },
  readDocument(numeroCnj, documentId, signal) {
    const { base } = baseUrlFor(ctx, numeroCnj);
    return new PjeClassicClient({ baseUrl: base, http: ctx.http, source: ctx.source, label: ctx.label }).readDocument(numeroCnj, documentId, signal);
  },
  /**
   * An appeal under its origin number (issue 52 item 3), from the 2nd degree's own deployment where the
   * court has one on a host or context of its own (TJMA's `pje2g`): the same flow there, its page read as
   * the 2nd degree's; none without one. PJe lists a number once: one appeal at most.
   */
  async fetchAppeals(numeroCnj, signal) {
    const base = ctx.urls[2];
    if (!base || base === ctx.urls[1] || grauOfCnj(numeroCnj) !== 1) return [];
    const found = await new PjeClassicClient({ baseUrl: base, http: ctx.http, source: ctx.source, label: ctx.label, grau: 2 }).fetchCase(numeroCnj, signal);
    return found ? [found] : [];
  },
  async search(query, max, signal) {
    const hits = await new PjeClassicClient({ baseUrl: ctx.urls[1], http: ctx.http, source: ctx.source, label: ctx.label }).search(query, max, signal);
    // The table says PJe offers it; a deployment whose form lacks the field fails with that reason, never "no hit".
    if (!hits) throw ctx.http.session(ctx.source, ctx.label).fail('unavailable', `${ctx.court.sigla}'s search form has no field for a search by ${query.kind}`);
    return hits;
  },
});
