/**
 * The DataJud simulator: `POST /<alias>/_search` as api-publica.datajud.cnj.jus.br answers it
 * (reference/upstream/datajud.md). Order of checks as an ES cluster behind API-key security does:
 * credentials (`Authorization: APIKey <key>` or `ApiKey <key>`, else 401 security_exception), then
 * the index (91 official aliases, `api_publica_tre-dft` but not `tre-df`; else 404
 * index_not_found_exception), then the body (JSON, Content-Type application/json, supported DSL).
 */
import type { SandboxDataset } from '../data/dataset.ts';
import { isJsonContentType, jsonResponse, type HandlerContext, type SimRequest, type SimResponse, type UpstreamHandler } from '../http.ts';
import { EsError, indexNotFound, unauthenticated } from './errors.ts';
import { parseSearch } from './query.ts';
import { runSearch } from './search.ts';

export interface DataJudSimulatorOptions {
  dataset: SandboxDataset;
  apiKey: string;
  knobs?: SandboxDataJud;
}

/**
 * DataJud's delay behind the courts (DESIGN.md §5: days to weeks): with `lagMs`, the simulator answers
 * as of that long ago, so a movement the court's page (and DJEN) already show reaches DataJud later.
 * Default 0: every source sees the data set at the same instant.
 */
export class SandboxDataJud {
  #lagMs = 0;
  set(v: { lagMs?: unknown }): void {
    if (typeof v !== 'object' || v === null) throw new RangeError('datajud: expected a JSON object');
    for (const k of Object.keys(v)) if (k !== 'lagMs') throw new RangeError(`datajud: unknown setting "${k}" (known: lagMs)`);
    if (v.lagMs !== undefined && !(typeof v.lagMs === 'number' && Number.isInteger(v.lagMs) && v.lagMs >= 0))
      throw new RangeError('datajud: lagMs must be an integer ≥ 0');
    this.#lagMs = (v.lagMs as number | undefined) ?? 0;
  }
  get(): { lagMs: number } {
    return { lagMs: this.#lagMs };
  }
  reset(): void {
    this.#lagMs = 0;
  }
}

const AUTH = /^\s*apikey\s+(\S+)\s*$/i;

function checkAuth(req: SimRequest, apiKey: string): void {
  const header = req.headers.authorization;
  if (!header) throw unauthenticated(req.path, true);
  const m = AUTH.exec(header);
  if (!m || m[1] !== apiKey) throw unauthenticated(req.path, false);
}

function parseBody(req: SimRequest): unknown {
  if (req.body.length === 0) return undefined;
  try {
    return JSON.parse(req.body.toString('utf8'));
  } catch (e) {
    throw new EsError(400, 'x_content_parse_exception', `[1:1] ${(e as Error).message}`);
  }
}

function search(req: SimRequest, ctx: HandlerContext, options: DataJudSimulatorOptions, alias: string): SimResponse {
  if (!options.dataset.instancesOf(alias)) throw indexNotFound(alias);
  if (req.body.length > 0 && !isJsonContentType(req.headers['content-type'])) {
    return jsonResponse(406, { error: `Content-Type header [${req.headers['content-type'] ?? ''}] is not supported`, status: 406 });
  }
  const asOf = ctx.now - (options.knobs?.get().lagMs ?? 0);
  const request = parseSearch(parseBody(req), asOf);
  return jsonResponse(200, runSearch(options.dataset, alias, request, asOf, ctx.partialShards));
}

export function dataJudHandler(options: DataJudSimulatorOptions): UpstreamHandler {
  return (req, ctx) => {
    try {
      checkAuth(req, options.apiKey);
      const m = /^\/([^/]+)\/(_search|_mapping)\/?$/.exec(req.path);
      if (!m) return jsonResponse(400, { error: `no handler found for uri [${req.path}] and method [${req.method}]`, status: 400 });
      const alias = decodeURIComponent(m[1]);
      if (m[2] === '_mapping') {
        // DataJud forbids the mapping API to the public key (datajud.md §4).
        return new EsError(
          403,
          'security_exception',
          `action [indices:admin/mappings/get] is unauthorized for API key id [sandbox] of user [api-publica] on indices [${alias}]`,
        ).toResponse();
      }
      if (req.method !== 'POST' && req.method !== 'GET') {
        return jsonResponse(
          405,
          { error: `Incorrect HTTP method for uri [${req.path}] and method [${req.method}], allowed: [POST, GET]`, status: 405 },
          { allow: 'POST,GET' },
        );
      }
      return search(req, ctx, options, alias);
    } catch (e) {
      if (e instanceof EsError) return e.toResponse();
      throw e;
    }
  };
}
