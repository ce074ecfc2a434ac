/**
 * Test double of the DataJud API on 127.0.0.1 (random port): records every request and answers
 * through a handler. `FakeIndexes` is a handler that emulates the subset of Elasticsearch the
 * connector uses (terms on numeroProcesso, range on dataHoraUltimaAtualizacao, size, sort on
 * @timestamp asc with strict search_after, 404 index_not_found_exception). Test-only code.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { FakeUpstream, type Handler as FakeHandler, type RawRequest, type Reply } from '../../testing/fake-upstream.ts';
import { cnjCheckDigits } from '../../../platform/identifiers/cnj.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The path segment before `/_search`. */
  alias: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when not JSON). */
  body: any;
}

export type { Reply } from '../../testing/fake-upstream.ts';
export type Handler = FakeHandler<RecordedRequest>;

export class FakeDataJud extends FakeUpstream<RecordedRequest> {
  static async start(handler: Handler): Promise<FakeDataJud> {
    return new FakeDataJud(handler).listen();
  }

  requestsTo(alias: string): RecordedRequest[] {
    return this.requests.filter((r) => r.alias === alias);
  }

  protected record({ method, url, headers, body }: RawRequest): RecordedRequest {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    const alias = decodeURIComponent(/^\/([^/]+)\/_search$/.exec(url)?.[1] ?? '');
    return { method, path: url, alias, headers, body: parsed };
  }
}

/** One stored document of the fake index. */
export interface FakeDoc {
  _id: string;
  /** `@timestamp` as epoch millis: the sort value. */
  ts: number;
  _source: Record<string, any>;
}

export function esResponse(
  hits: Array<{ _index: string; _id: string; _source: unknown; sort?: unknown[] }>,
  extra: { failed?: number; total?: number } = {},
): unknown {
  return {
    took: 3,
    timed_out: false,
    _shards: { total: 3, successful: 3 - (extra.failed ?? 0), skipped: 0, failed: extra.failed ?? 0 },
    hits: { total: { value: extra.total ?? hits.length, relation: 'eq' }, max_score: null, hits: hits.map((h) => ({ _score: null, ...h })) },
  };
}

export function indexNotFound(alias: string): Reply {
  return {
    status: 404,
    json: {
      error: {
        root_cause: [{ type: 'index_not_found_exception', reason: `no such index [${alias}]` }],
        type: 'index_not_found_exception',
        reason: `no such index [${alias}]`,
      },
      status: 404,
    },
  };
}

export class FakeIndexes {
  readonly #docs = new Map<string, FakeDoc[]>();

  add(alias: string, ...docs: FakeDoc[]): this {
    const list = this.#docs.get(alias) ?? [];
    list.push(...docs);
    list.sort((a, b) => a.ts - b.ts || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
    this.#docs.set(alias, list);
    return this;
  }

  /** Creates an empty index (answers, with no hits). */
  create(alias: string): this {
    if (!this.#docs.has(alias)) this.#docs.set(alias, []);
    return this;
  }

  readonly handler: Handler = (req) => {
    const docs = this.#docs.get(req.alias);
    if (!docs) return indexNotFound(req.alias);
    const body = req.body ?? {};
    const size: number = body.size ?? 10;
    const after: number | undefined = body.search_after?.[0];
    const matching = docs.filter((d) => matches(d, body.query) && (after === undefined || d.ts > after));
    const page = matching.slice(0, size);
    return {
      json: esResponse(
        page.map((d) => ({ _index: req.alias, _id: d._id, _source: d._source, sort: [d.ts] })),
        { total: matching.length },
      ),
    };
  };
}

function matches(doc: FakeDoc, query: any): boolean {
  if (!query || query.match_all) return true;
  if (query.terms?.numeroProcesso) return query.terms.numeroProcesso.includes(doc._source.numeroProcesso);
  const range = query.bool?.filter?.find((f: any) => f.range)?.range?.dataHoraUltimaAtualizacao;
  if (range) return Date.parse(doc._source.dataHoraUltimaAtualizacao) >= Date.parse(range.gte);
  throw new Error(`FakeIndexes: unsupported query ${JSON.stringify(query)}`);
}

/** A valid CNJ number (20 digits) of court J.TR. */
export function cnjNumber(sequential: number, segment: string, tribunal: string, year = '2021', origin = '0001'): string {
  const seq = String(sequential).padStart(7, '0');
  return `${seq}${cnjCheckDigits(seq, year, segment, tribunal, origin)}${year}${segment}${tribunal}${origin}`;
}

/** A plausible DataJud document for `numero` at grau `grau`. */
export function fakeDoc(numero: string, grau: string, ts: number, tribunal: string, updated = '2026-01-01T00:00:00.000Z'): FakeDoc {
  const id = `${tribunal}_${grau}_${numero}`;
  return {
    _id: id,
    ts,
    _source: {
      id,
      tribunal,
      grau,
      numeroProcesso: numero,
      nivelSigilo: 0,
      dataAjuizamento: '20210421185953',
      dataHoraUltimaAtualizacao: updated,
      '@timestamp': new Date(ts).toISOString(),
      classe: { codigo: 7, nome: 'Procedimento Comum Cível' },
      movimentos: [{ codigo: 26, nome: 'Distribuição', dataHora: '2021-04-21T18:59:53.000Z' }],
      assuntos: [{ codigo: 6118, nome: 'Aposentadoria' }],
    },
  };
}
