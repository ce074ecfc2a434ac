/**
 * The simulated STF gazette API under `<sandbox>/stf/decisoes-publicacoes/api/public`, with the real
 * protocol, structure and quirks (reference/upstream/real/README.md §6, captures stf-1..4; wave2.md §B.3;
 * parity.test.ts holds the answers to the captures' structure):
 *   GET  /ultimo-dje     a bare JSON string, the last *publication* day (the newest edition out, not
 *                        the last divulgação day); sets the `XSRF-TOKEN` and `JSESSIONID` cookies
 *   POST /publicacoes    the search: needs `X-XSRF-TOKEN` equal to the session's cookie (else 403
 *                        with the literal body), `filtros` (key `Sessão` accented), `quantidade` ≤ 500
 *                        and `termo` matching /^[a-zA-Z\d,\-\s]{0,2010}$/ (else 422
 *                        `{"errors":[{internalCode, userMessage, moreDetails, targetName}],"httpCode":422}`);
 *                        `data`/`dataFim` are epoch milliseconds of Brasília days; the answer is
 *                        `{agregacoes: [groups], publicacoes, total}`, `total` right on page 1 only
 *                        (0 afterwards), past the end `publicacoes: []`; `termo` matches all words
 *                        anywhere (folded). Items divulged today, or on a Saturday, have `publicacao: null`
 *                        until their edition is out.
 * Knobs (`sandbox.stf`, `/_sandbox/stf`): `wafChallenge` (202 with `x-amzn-waf-action: challenge`),
 * `expireSessions` (every session forgotten: the next POST gets the 403 and must redo the GET).
 * The fault layer (upstream `stf`) adds latency, 5xx, 429, hangs and cut bodies.
 */
import { randomBytes } from 'node:crypto';
import { foldText } from '../data/text.ts';
import { brasiliaDayOf, isoDay } from '../djen/dates.ts';
import { jsonResponse, type HandlerContext, type SimRequest, type SimResponse } from '../http.ts';
import { isBusinessDay, type StfGazette, type StfItem } from './publications.ts';

export const STF_API_PREFIX = '/decisoes-publicacoes/api/public';
const CSRF_REFUSAL = 'An expected CSRF token cannot be found';
const TERMO = /^[a-zA-Z\d,\-\s]{0,2010}$/;
const MAX_QUANTIDADE = 500;
const MAX_SESSIONS = 10_000;

export interface StfKnobs {
  wafChallenge?: boolean;
  expireSessions?: boolean;
}

export class StfKnobError extends RangeError {}

export class SandboxStf {
  #knobs: Required<StfKnobs> = { wafChallenge: false, expireSessions: false };
  readonly sessions = new Map<string, string>();

  set(knobs: StfKnobs): void {
    for (const [k, v] of Object.entries(knobs)) {
      if (k !== 'wafChallenge' && k !== 'expireSessions') throw new StfKnobError(`stf: unknown setting "${k}" (known: wafChallenge, expireSessions)`);
      if (typeof v !== 'boolean') throw new StfKnobError(`stf: ${k} must be a boolean`);
    }
    this.#knobs = { wafChallenge: knobs.wafChallenge ?? false, expireSessions: knobs.expireSessions ?? false };
    if (this.#knobs.expireSessions) this.sessions.clear();
  }

  get(): Required<StfKnobs> {
    return { ...this.#knobs };
  }

  reset(): void {
    this.set({});
  }
}

function cookiesOf(header: string | string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of String(header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

/** `/ultimo-dje`: the last *publication* day, the newest edition out (README §6): the last business day up to today. */
function lastEdition(today: number): number {
  let day = today;
  while (!isBusinessDay(day)) day--;
  return day;
}

/** The real 422 body (stf-3.json); its other statuses and messages are [guess] in the same shape. */
function refusal(status: number, targetName: string, userMessage: string): SimResponse {
  return jsonResponse(status, { errors: [{ internalCode: '999.001', userMessage, moreDetails: 'Erro de validação genérico.', targetName }], httpCode: status });
}

interface Search {
  termo: string;
  processo: string;
  pagina: number;
  quantidade: number;
  data: number;
  dataFim: number;
}

function parseSearch(body: Buffer): Search | SimResponse {
  let b: Record<string, unknown>;
  try {
    b = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return refusal(400, 'body', 'corpo da requisição inválido');
  }
  if (typeof b !== 'object' || b === null) return refusal(400, 'body', 'corpo da requisição inválido');
  const filtros = b.filtros as Record<string, unknown> | undefined;
  if (!filtros || typeof filtros !== 'object' || !('Sessão' in filtros)) return refusal(422, 'filtros', 'não deve ser nulo');
  const quantidade = Number(b.quantidade ?? 10);
  if (!Number.isInteger(quantidade) || quantidade < 1) return refusal(422, 'quantidade', 'deve ser maior ou igual a 1');
  if (quantidade > MAX_QUANTIDADE) return refusal(422, 'quantidade', `deve ser menor ou igual a ${MAX_QUANTIDADE}`);
  const termo = typeof b.termo === 'string' ? b.termo : '';
  if (!TERMO.test(termo)) return refusal(422, 'termo', `deve corresponder a "${TERMO.source}"`);
  const data = Number(b.data);
  const dataFim = Number(b.dataFim ?? b.data);
  if (!Number.isFinite(data) || !Number.isFinite(dataFim)) return refusal(422, 'data', 'não deve ser nulo');
  return { termo, processo: typeof b.processo === 'string' ? b.processo : '', pagina: Math.max(1, Number(b.pagina ?? 1) || 1), quantidade, data, dataFim };
}

function matches(item: StfItem, s: Search): boolean {
  if (s.processo && !foldText(item.processo).includes(foldText(s.processo))) return false;
  if (!s.termo.trim()) return true;
  const haystack = foldText(`${item.processo} ${item.texto} ${item.envolvidos.map((e) => `${e.nome} ${e.identificacoes.join(' ')}`).join(' ')}`);
  return foldText(s.termo)
    .split(' ')
    .filter(Boolean)
    .every((w) => haystack.includes(w));
}

/** Relator codes are lower case without accents (`min. andre mendonca`), the other groups as the items say. */
const relatorCode = (r: string) =>
  r
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** `agregacoes`: an array of groups over every item found (not only the page), largest first, as in stf-1.json. */
export function aggregations(found: readonly StfItem[]) {
  const group = (nome: string, key: (i: StfItem) => string | null) => {
    const counts = new Map<string, number>();
    for (const i of found) {
      const k = key(i);
      if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const itens = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([codigo, quantidade]) => ({ codigo, quantidade, nome: codigo }));
    return { nome, tipo: null, criterio: null, itens };
  };
  return [
    group('Relator', (i) => relatorCode(i.relator)),
    group('Tipo', (i) => i.tipo),
    group('Colegiado', (i) => i.colegiado),
    group('Sessão', (i) => i.sessao),
  ];
}

export function stfHandler(options: { gazette: StfGazette; knobs: SandboxStf }) {
  const { gazette, knobs } = options;
  return (req: SimRequest, ctx: HandlerContext): SimResponse => {
    if (knobs.get().wafChallenge) {
      return {
        status: 202,
        headers: { 'x-amzn-waf-action': 'challenge', 'content-type': 'text/html' },
        body: Buffer.from('<html><body>challenge</body></html>'),
      };
    }
    const path = req.path.replace(/\/+$/, '');
    const today = brasiliaDayOf(ctx.now);
    if (path === `${STF_API_PREFIX}/ultimo-dje` && req.method === 'GET') {
      const session = randomBytes(12).toString('hex');
      const token = randomBytes(16).toString('hex');
      if (knobs.sessions.size >= MAX_SESSIONS) knobs.sessions.delete(knobs.sessions.keys().next().value!);
      knobs.sessions.set(session, token);
      return {
        ...jsonResponse(200, isoDay(lastEdition(today))),
        headers: { 'content-type': 'application/json', 'set-cookie': [`XSRF-TOKEN=${token}; Path=/`, `JSESSIONID=${session}; Path=/; HttpOnly`] },
      };
    }
    if (path === `${STF_API_PREFIX}/publicacoes` && req.method === 'POST') {
      const cookies = cookiesOf(req.headers.cookie);
      const expected = cookies.JSESSIONID ? knobs.sessions.get(cookies.JSESSIONID) : undefined;
      if (!expected || req.headers['x-xsrf-token'] !== expected || cookies['XSRF-TOKEN'] !== expected) {
        return { status: 403, headers: { 'content-type': 'text/plain' }, body: Buffer.from(CSRF_REFUSAL) };
      }
      const search = parseSearch(req.body);
      if ('status' in search) return search;
      const found: StfItem[] = [];
      // Every day divulged up to today, whatever /ultimo-dje says (a day after the last edition has items).
      for (let day = brasiliaDayOf(search.data); day <= Math.min(brasiliaDayOf(search.dataFim), today); day++) {
        for (const item of gazette.day(day, today)) if (matches(item, search)) found.push(item);
      }
      const start = (search.pagina - 1) * search.quantidade;
      // `total` is right on page 1 only; past the end: no items, total 0, the same agregacoes (stf-2.json).
      return jsonResponse(200, {
        agregacoes: aggregations(found),
        publicacoes: found.slice(start, start + search.quantidade),
        total: search.pagina === 1 ? found.length : 0,
      });
    }
    return refusal(404, 'path', 'recurso não encontrado');
  };
}
