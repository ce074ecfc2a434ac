/**
 * The simulated STF gazette API under `<sandbox>/stf/decisoes-publicacoes/api/public`, with the real
 * protocol and quirks (reference/upstream/wave2.md §B.1, §B.3):
 *   GET  /ultimo-dje     the last divulgação day as a JSON string; sets the `XSRF-TOKEN` and
 *                        `JSESSIONID` cookies
 *   POST /publicacoes    the search: needs `X-XSRF-TOKEN` equal to the session's cookie (else 403
 *                        with the literal body), `filtros` (key `Sessão` accented), `quantidade` ≤ 500
 *                        and `termo` matching /^[a-zA-Z\d,\-\s]{0,2010}$/ (else 422 `{userMessage}`);
 *                        `data`/`dataFim` are epoch milliseconds of Brasília days; `total` is valid on
 *                        page 1 only (0 afterwards); `termo` matches all words anywhere (folded).
 * Knobs (`sandbox.stf`, `/_sandbox/stf`): `wafChallenge` (202 with `x-amzn-waf-action: challenge`),
 * `expireSessions` (every session forgotten: the next POST gets the 403 and must redo the GET).
 * The fault layer (upstream `stf`) adds latency, 5xx, 429, hangs and cut bodies.
 */
import { randomBytes } from 'node:crypto';
import { foldText } from '../data/text.ts';
import { brasiliaDayOf } from '../djen/dates.ts';
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

/** The last business day at or before `now`, Brasília time. */
function lastDje(now: number): number {
  let day = brasiliaDayOf(now);
  while (!isBusinessDay(day)) day--;
  return day;
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
    return jsonResponse(400, { userMessage: 'corpo da requisição inválido' });
  }
  if (typeof b !== 'object' || b === null) return jsonResponse(400, { userMessage: 'corpo da requisição inválido' });
  const filtros = b.filtros as Record<string, unknown> | undefined;
  if (!filtros || typeof filtros !== 'object' || !('Sessão' in filtros)) return jsonResponse(400, { userMessage: 'filtros é obrigatório' });
  const quantidade = Number(b.quantidade ?? 10);
  if (!Number.isInteger(quantidade) || quantidade < 1) return jsonResponse(422, { userMessage: 'quantidade inválida' });
  if (quantidade > MAX_QUANTIDADE) return jsonResponse(422, { userMessage: `deve ser menor ou igual a ${MAX_QUANTIDADE}` });
  const termo = typeof b.termo === 'string' ? b.termo : '';
  if (!TERMO.test(termo)) return jsonResponse(422, { userMessage: 'termo contém caracteres inválidos' });
  const data = Number(b.data);
  const dataFim = Number(b.dataFim ?? b.data);
  if (!Number.isFinite(data) || !Number.isFinite(dataFim)) return jsonResponse(422, { userMessage: 'data inválida' });
  return { termo, processo: typeof b.processo === 'string' ? b.processo : '', pagina: Math.max(1, Number(b.pagina ?? 1) || 1), quantidade, data, dataFim };
}

function matches(item: StfItem, s: Search): boolean {
  if (s.processo && !foldText(item.processo).includes(foldText(s.processo))) return false;
  if (!s.termo.trim()) return true;
  const haystack = foldText(`${item.processo} ${item.texto} ${item.envolvidos.map((e) => `${e.nome} ${e.identificacoes.join(' ')}`).join(' ')}`);
  return foldText(s.termo).split(' ').filter(Boolean).every((w) => haystack.includes(w));
}

export function stfHandler(options: { gazette: StfGazette; knobs: SandboxStf }) {
  const { gazette, knobs } = options;
  return (req: SimRequest, ctx: HandlerContext): SimResponse => {
    if (knobs.get().wafChallenge) {
      return { status: 202, headers: { 'x-amzn-waf-action': 'challenge', 'content-type': 'text/html' }, body: Buffer.from('<html><body>challenge</body></html>') };
    }
    const path = req.path.replace(/\/+$/, '');
    if (path === `${STF_API_PREFIX}/ultimo-dje` && req.method === 'GET') {
      const session = randomBytes(12).toString('hex');
      const token = randomBytes(16).toString('hex');
      if (knobs.sessions.size >= MAX_SESSIONS) knobs.sessions.delete(knobs.sessions.keys().next().value!);
      knobs.sessions.set(session, token);
      const day = lastDje(ctx.now);
      return {
        ...jsonResponse(200, new Date(day * 86_400_000).toISOString().slice(0, 10)),
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
      const last = lastDje(ctx.now);
      const found: StfItem[] = [];
      for (let day = brasiliaDayOf(search.data); day <= Math.min(brasiliaDayOf(search.dataFim), last); day++) {
        for (const item of gazette.day(day)) if (matches(item, search)) found.push(item);
      }
      const start = (search.pagina - 1) * search.quantidade;
      // `total` is only valid on page 1 (wave2.md §B.1): later pages answer 0.
      return jsonResponse(200, { publicacoes: found.slice(start, start + search.quantidade), total: search.pagina === 1 ? found.length : 0, agregacoes: {} });
    }
    return jsonResponse(404, { userMessage: 'recurso não encontrado' });
  };
}
