/**
 * The part of the Elasticsearch search DSL the DataJud simulator understands (datajud.md §5–§6):
 * `match`/`term`/`terms` on numeroProcesso, classe.codigo, orgaoJulgador.codigo, movimentos.codigo;
 * `range` on dataHoraUltimaAtualizacao/@timestamp; `bool` (must/filter/should/must_not) of those;
 * `match_all`; `size` (default 10, ≤ 10 000), `from` (from + size ≤ 10 000), `sort` on @timestamp /
 * dataHoraUltimaAtualizacao / id with `search_after`, `_source` filtering, `track_total_hits`.
 * Anything else is refused with a 400, never silently ignored.
 */
import { illegalArgument, parsingError, shardError } from './errors.ts';

export type TermField = 'numeroProcesso' | 'classe.codigo' | 'orgaoJulgador.codigo' | 'movimentos.codigo';

export type Clause =
  | { kind: 'all' }
  | { kind: 'terms'; field: TermField; values: ReadonlySet<string>; score: number }
  | { kind: 'range'; gt?: number; gte?: number; lt?: number; lte?: number }
  | { kind: 'bool'; must: Clause[]; filter: Clause[]; should: Clause[]; mustNot: Clause[]; minimumShouldMatch: number };

export type SortField = 'timestamp' | 'id' | 'score';

export interface SortKey {
  field: SortField;
  order: 'asc' | 'desc';
}

export interface SourceFilter {
  enabled: boolean;
  includes: string[];
  excludes: string[];
}

export interface SearchRequest {
  query: Clause;
  size: number;
  from: number;
  sort: SortKey[] | null;
  searchAfter: (number | string)[] | null;
  source: SourceFilter;
  /** true, false or the count up to which totals are exact (default 10 000). */
  trackTotalHits: boolean | number;
}

export const MAX_RESULT_WINDOW = 10_000;
/** A BM25-looking score for `match` (the real TRF4 answer in datajud-sample-response.json scores 15.958511). */
const MATCH_SCORE = 15.958511;
const TERM_FIELDS: readonly string[] = ['numeroProcesso', 'classe.codigo', 'orgaoJulgador.codigo', 'movimentos.codigo'];
const RANGE_FIELDS: readonly string[] = ['dataHoraUltimaAtualizacao', '@timestamp'];
const SUPPORTED = 'match, term, terms, range, bool, match_all';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{ "<field>": <spec> }`: the one field an ES leaf query names. */
function single(kind: string, node: unknown): [string, unknown] {
  if (!isObject(node)) throw parsingError(`[${kind}] query malformed, no start_object after query name`);
  const keys = Object.keys(node).filter((k) => k !== 'boost');
  if (keys.length !== 1) throw parsingError(`[${kind}] query doesn't support multiple fields, found [${keys.join('] and [')}]`);
  return [keys[0], node[keys[0]]];
}

function termField(kind: string, field: string): TermField {
  if (!TERM_FIELDS.includes(field)) {
    throw parsingError(`[${kind}] on field [${field}] is not supported by the Tramita sandbox (fields: ${TERM_FIELDS.join(', ')})`);
  }
  return field as TermField;
}

/** A value as the keyword/long field would index it; long fields refuse non-integers like ES does. */
function termValue(field: TermField, value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw parsingError(`[${field}] expects a string or a number, got ${JSON.stringify(value)}`);
  const text = String(value).trim();
  if (field === 'numeroProcesso') return text;
  if (!/^-?\d+$/.test(text)) throw shardError(`failed to create query: For input string: "${text}"`);
  return String(Number(text));
}

function leaf(kind: 'match' | 'term', node: unknown): Clause {
  const [field, spec] = single(kind, node);
  const tf = termField(kind, field);
  const key = kind === 'match' ? 'query' : 'value';
  const raw = isObject(spec) ? spec[key] : spec;
  if (raw === undefined) throw parsingError(`[${kind}] query does not support [${isObject(spec) ? Object.keys(spec).join(', ') : String(spec)}]`);
  return { kind: 'terms', field: tf, values: new Set([termValue(tf, raw)]), score: kind === 'match' ? MATCH_SCORE : 1 };
}

function terms(node: unknown): Clause {
  const [field, values] = single('terms', node);
  const tf = termField('terms', field);
  if (!Array.isArray(values)) throw parsingError(`[terms] query does not support [${field}] with a non-array value`);
  if (values.length > 65_536)
    throw illegalArgument(`The number of terms [${values.length}] used in the Terms Query request has exceeded the allowed maximum of [65536].`);
  return { kind: 'terms', field: tf, values: new Set(values.map((v) => termValue(tf, v))), score: 1 };
}

const DATE_MATH = /^now(?:([+-])(\d+)([smhdwMy]))?(?:\/[smhdwMy])?$/;
const UNIT_MS: Record<string, number> = { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7, w: 6.048e8, M: 2.592e9, y: 3.1536e10 };

/**
 * strict_date_optional_time||epoch_millis, plus `now±N<unit>`. Like ES, `lte`/`gt` round a date
 * without time up to the end of that day.
 */
export function parseDate(value: unknown, roundUp: boolean, now: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d+$/.test(text)) return Number(text);
    const math = DATE_MATH.exec(text);
    if (math) return now + (math[1] ? (math[1] === '-' ? -1 : 1) * Number(math[2]) * UNIT_MS[math[3]] : 0);
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
      const day = Date.parse(`${text}T00:00:00Z`);
      if (!Number.isNaN(day)) return roundUp ? day + 86_399_999 : day;
    }
    if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})?$/.test(text)) {
      const ms = Date.parse(/Z|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`);
      if (!Number.isNaN(ms)) return ms;
    }
  }
  throw parsingError(`failed to parse date field [${String(value)}] with format [strict_date_optional_time||epoch_millis]`);
}

function range(node: unknown, now: number): Clause {
  const [field, spec] = single('range', node);
  if (!RANGE_FIELDS.includes(field))
    throw parsingError(`[range] on field [${field}] is not supported by the Tramita sandbox (fields: ${RANGE_FIELDS.join(', ')})`);
  if (!isObject(spec)) throw parsingError(`[range] query malformed, no start_object after field name`);
  const clause: Clause & { kind: 'range' } = { kind: 'range' };
  for (const [key, v] of Object.entries(spec)) {
    if (key === 'gt' || key === 'lte') clause[key] = parseDate(v, true, now);
    else if (key === 'gte' || key === 'lt') clause[key] = parseDate(v, false, now);
    else if (key !== 'format' && key !== 'time_zone' && key !== 'boost') throw parsingError(`[range] query does not support [${key}]`);
  }
  return clause;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}

function bool(node: unknown, now: number): Clause {
  if (!isObject(node)) throw parsingError('[bool] query malformed, no start_object after query name');
  const clause = {
    kind: 'bool' as const,
    must: [] as Clause[],
    filter: [] as Clause[],
    should: [] as Clause[],
    mustNot: [] as Clause[],
    minimumShouldMatch: -1,
  };
  for (const [key, v] of Object.entries(node)) {
    if (key === 'must') clause.must = list(v).map((c) => parseClause(c, now));
    else if (key === 'filter') clause.filter = list(v).map((c) => parseClause(c, now));
    else if (key === 'should') clause.should = list(v).map((c) => parseClause(c, now));
    else if (key === 'must_not') clause.mustNot = list(v).map((c) => parseClause(c, now));
    else if (key === 'minimum_should_match') clause.minimumShouldMatch = Number(v);
    else if (key !== 'boost') throw parsingError(`[bool] query does not support [${key}]`);
  }
  if (clause.minimumShouldMatch < 0 || Number.isNaN(clause.minimumShouldMatch)) {
    clause.minimumShouldMatch = clause.should.length > 0 && clause.must.length === 0 && clause.filter.length === 0 ? 1 : 0;
  }
  return clause;
}

export function parseClause(node: unknown, now: number): Clause {
  if (!isObject(node)) throw parsingError('query malformed, must start with start_object');
  const keys = Object.keys(node);
  if (keys.length !== 1) throw parsingError(`[_na] query malformed, expected a single query, found [${keys.join(', ')}]`);
  const [kind] = keys;
  const body = node[kind];
  switch (kind) {
    case 'match_all':
      return { kind: 'all' };
    case 'match':
      return leaf('match', body);
    case 'term':
      return leaf('term', body);
    case 'terms':
      return terms(body);
    case 'range':
      return range(body, now);
    case 'bool':
      return bool(body, now);
    default:
      throw parsingError(`unknown query [${kind}] (the Tramita sandbox supports ${SUPPORTED})`);
  }
}

const SORT_FIELDS: Record<string, SortField> = { '@timestamp': 'timestamp', dataHoraUltimaAtualizacao: 'timestamp', id: 'id', _score: 'score' };

function sortKey(field: string, order: unknown): SortKey {
  const f = SORT_FIELDS[field];
  if (!f) throw shardError(`No mapping found for [${field}] in order to sort on`);
  const o = order ?? (f === 'score' ? 'desc' : 'asc');
  if (o !== 'asc' && o !== 'desc') throw parsingError(`[sort] unknown order [${String(o)}], expected asc or desc`);
  return { field: f, order: o };
}

function parseSort(node: unknown): SortKey[] {
  return list(node).map((entry) => {
    if (typeof entry === 'string') return sortKey(entry, undefined);
    if (isObject(entry) && Object.keys(entry).length === 1) {
      const [field, spec] = Object.entries(entry)[0];
      if (typeof spec === 'string') return sortKey(field, spec);
      if (isObject(spec)) return sortKey(field, spec.order);
    }
    throw parsingError(`[sort] malformed sort entry ${JSON.stringify(entry)}`);
  });
}

function parseSource(node: unknown): SourceFilter {
  if (node === undefined || node === true) return { enabled: true, includes: [], excludes: [] };
  if (node === false) return { enabled: false, includes: [], excludes: [] };
  const strings = (v: unknown, key: string): string[] => {
    const items = list(v ?? []);
    if (!items.every((s) => typeof s === 'string')) throw parsingError(`[_source] ${key} must be strings`);
    return items as string[];
  };
  if (typeof node === 'string' || Array.isArray(node)) return { enabled: true, includes: strings(node, 'includes'), excludes: [] };
  if (isObject(node)) {
    for (const k of Object.keys(node)) if (!['includes', 'excludes', 'include', 'exclude'].includes(k)) throw parsingError(`[_source] unknown key [${k}]`);
    return { enabled: true, includes: strings(node.includes ?? node.include, 'includes'), excludes: strings(node.excludes ?? node.exclude, 'excludes') };
  }
  throw parsingError('[_source] must be a boolean, a string, an array or an object');
}

function nonNegativeInt(name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw parsingError(`[${name}] must be a non-negative integer, got ${JSON.stringify(v)}`);
  return n;
}

const TOP_LEVEL = new Set(['query', 'size', 'from', 'sort', 'search_after', '_source', 'track_total_hits']);

export function parseSearch(body: unknown, now: number): SearchRequest {
  if (body === undefined) body = {};
  if (!isObject(body)) throw parsingError('request body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (!TOP_LEVEL.has(key))
      throw parsingError(
        `Unknown key for a ${typeof body[key] === 'object' ? 'START_OBJECT' : 'VALUE'} in [${key}] (the Tramita sandbox reads ${[...TOP_LEVEL].join(', ')})`,
      );
  }
  const size = nonNegativeInt('size', body.size, 10);
  const from = nonNegativeInt('from', body.from, 0);
  if (from + size > MAX_RESULT_WINDOW) {
    throw illegalArgument(
      `Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${from + size}]. See the scroll api for a more ` +
        `efficient way to request large data sets.`,
    );
  }
  const sort = body.sort === undefined ? null : parseSort(body.sort);
  let searchAfter: (number | string)[] | null = null;
  if (body.search_after !== undefined) {
    if (!sort) throw parsingError('[search_after] cannot be used without [sort]');
    if (!Array.isArray(body.search_after) || !body.search_after.every((v) => typeof v === 'number' || typeof v === 'string'))
      throw parsingError('[search_after] must be an array of values');
    if (body.search_after.length !== sort.length) throw illegalArgument(`search_after has ${body.search_after.length} value(s) but sort has ${sort.length}.`);
    if (from > 0) throw illegalArgument('`from` parameter must be set to 0 when `search_after` is used.');
    searchAfter = body.search_after as (number | string)[];
  }
  const tth = body.track_total_hits;
  if (tth !== undefined && typeof tth !== 'boolean' && !(typeof tth === 'number' && Number.isInteger(tth) && tth >= 0)) {
    throw parsingError('[track_total_hits] must be a boolean or a non-negative integer');
  }
  return {
    query: body.query === undefined ? { kind: 'all' } : parseClause(body.query, now),
    size,
    from,
    sort,
    searchAfter,
    source: parseSource(body._source),
    trackTotalHits: tth ?? MAX_RESULT_WINDOW,
  };
}
