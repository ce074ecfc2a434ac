/**
 * The DJEN simulator: Comunica PJe's public API (reference/upstream/djen.md) over the sandbox's
 * communications. Paths below `/djen`:
 *   GET /api/v1/comunicacao?…                 search (search.ts: params, the filter rule, paging, `count`)
 *   GET /api/v1/comunicacao/{id}              {status, message, items: [item]} or 404
 *   GET /api/v1/comunicacao/{hash}/certidao   the certidão PDF or 404
 *   GET /api/v1/comunicacao/tribunal          courts by UF
 *   GET /api/v1/caderno/{sigla}/{data}/{meio} caderno metadata (caderno.ts) with a temporary URL to
 *   GET /_cadernos/{sigla}/{data}/{meio}.zip?expira=<epoch s>   the ZIP; 403 once expired
 * Errors are `{"status": "error", "message": …}`. Answers carry `x-ratelimit-limit: 20` and an
 * `x-ratelimit-remaining` counted per minute of the sandbox clock but never below 5: the simulator
 * does not enforce the limit (the fault layer's 429 does), and a client that backs off at ≤ 2
 * remaining must not stall a test. Communications dated after the clock's day do not exist yet.
 */
import { courtBySigla } from '../../platform/courts/table.ts';
import { jsonResponse, type SimResponse, type UpstreamHandler } from '../http.ts';
import { CADERNO_URL_TTL_MS, type Cadernos } from './caderno.ts';
import { renderCertidao } from './certidao.ts';
import { brasiliaDayOf, parseIsoDay } from './dates.ts';
import type { Meio } from './model.ts';
import { renderItem } from './render.ts';
import { DjenQueryError, parseQuery, QueryCache, runQuery } from './search.ts';
import type { DjenStore } from './store.ts';
import { tribunalList } from './tribunais.ts';

export interface DjenSimulatorOptions {
  store: DjenStore;
  cadernos: Cadernos;
  /** The simulator's absolute base URL (`<sandbox>/djen`), for caderno download URLs. */
  baseUrl: () => string;
}

const RATE_LIMIT = 20;
const SUCCESS = 'Consulta realizada com sucesso';

/** Requests per clock minute, for a plausible `x-ratelimit-remaining`. */
class RateWindow {
  #minute = -1;
  #count = 0;

  headers(now: number): Record<string, string> {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.#minute) [this.#minute, this.#count] = [minute, 0];
    this.#count++;
    return { 'x-ratelimit-limit': String(RATE_LIMIT), 'x-ratelimit-remaining': String(Math.max(5, RATE_LIMIT - this.#count)) };
  }
}

const error = (status: number, message: string, headers: Record<string, string> = {}) => jsonResponse(status, { status: 'error', message }, headers);

/** What S3 answers for an expired presigned URL. */
function expired(): SimResponse {
  const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
  return { status: 403, headers: { 'content-type': 'application/xml' }, body: Buffer.from(xml) };
}

function cadernoKey(sigla: string, data: string, meio: string): { court: { sigla: string; nome: string }; day: number; meio: Meio } | SimResponse {
  const court = courtBySigla(decodeURIComponent(sigla).toUpperCase());
  if (!court || court.sigla === 'STF') return error(404, 'Tribunal não encontrado');
  const day = parseIsoDay(data);
  if (day === null) return error(400, 'data deve estar no formato yyyy-mm-dd');
  const m = meio.toUpperCase();
  if (m !== 'D' && m !== 'E') return error(400, 'meio deve ser D ou E');
  return { court, day, meio: m };
}

export function djenHandler(options: DjenSimulatorOptions): UpstreamHandler {
  const { store, cadernos } = options;
  const rate = new RateWindow();
  const queries = new QueryCache();
  return async (req, ctx) => {
    const today = brasiliaDayOf(ctx.now);
    if (req.method !== 'GET') return error(405, 'Método não permitido');
    const zip = /^\/_cadernos\/([^/]+)\/([^/]+)\/([^/.]+)\.zip$/.exec(req.path);
    if (zip) {
      const expira = Number(req.query.get('expira'));
      if (!Number.isFinite(expira) || expira * 1000 < ctx.now) return expired();
      const key = cadernoKey(zip[1], zip[2], zip[3]);
      if ('status' in key) return key;
      if (key.day > today) return error(404, 'Caderno não encontrado');
      const built = await cadernos.build(key.court.sigla, key.day, key.meio);
      if (built.total === 0) return error(404, 'Caderno não encontrado');
      return {
        status: 200,
        headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="${key.court.sigla}_${zip[2]}_${key.meio}.zip"` },
        body: built.zip,
      };
    }

    const limits = rate.headers(ctx.now);
    const path = req.path.replace(/\/+$/, '');
    if (path === '/api/v1/comunicacao') {
      try {
        const page = runQuery(store, parseQuery(req.query), today, queries);
        return jsonResponse(200, { status: 'success', message: SUCCESS, count: page.count, items: page.items.map(renderItem) }, limits);
      } catch (e) {
        if (e instanceof DjenQueryError) return error(400, e.message, limits);
        throw e;
      }
    }
    if (path === '/api/v1/comunicacao/tribunal') return jsonResponse(200, tribunalList(store, today), limits);
    const one = /^\/api\/v1\/comunicacao\/(\d+)$/.exec(path);
    if (one) {
      const c = store.byId(Number(one[1]), today);
      return c ? jsonResponse(200, { status: 'success', message: SUCCESS, items: [renderItem(c)] }, limits) : error(404, 'Comunicação não encontrada', limits);
    }
    const certidao = /^\/api\/v1\/comunicacao\/([^/]+)\/certidao$/.exec(path);
    if (certidao) {
      const c = store.byHash(decodeURIComponent(certidao[1]), today);
      if (!c) return error(404, 'Comunicação não encontrada', limits);
      return {
        status: 200,
        headers: { ...limits, 'content-type': 'application/pdf', 'content-disposition': `inline; filename="certidao-${c.hash}.pdf"` },
        body: await renderCertidao(c),
      };
    }
    const caderno = /^\/api\/v1\/caderno\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
    if (caderno) {
      const key = cadernoKey(caderno[1], caderno[2], caderno[3]);
      if ('status' in key) return key;
      const expira = Math.floor((ctx.now + CADERNO_URL_TTL_MS) / 1000);
      const url = () => `${options.baseUrl()}/_cadernos/${encodeURIComponent(key.court.sigla)}/${caderno[2]}/${key.meio}.zip?expira=${expira}`;
      return jsonResponse(200, await cadernos.meta(key.court, key.day, key.meio, today, url), limits);
    }
    return error(404, 'Recurso não encontrado', limits);
  };
}
