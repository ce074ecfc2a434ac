/**
 * Runs a parsed search over one alias at a given time and builds the answer in the shape of
 * datajud.md §7: `took`, `timed_out`, `_shards`, `hits.total{value,relation}` (capped at 10 000 with
 * "gte" unless `track_total_hits`), hits with `_index`, `_id`, `_score`, `_source` and `sort`.
 * One document per instance (grau); instances with no movement dated before `now` do not exist yet.
 */
import type { SandboxDataset, InstanceRef } from '../data/dataset.ts';
import { visibleMovementCount } from '../data/model.ts';
import { hash32 } from '../data/prng.ts';
import { parseDate, type Clause, type SearchRequest, type SortKey } from './query.ts';
import { filterSource, renderSource, type InstanceView } from './source.ts';

/** Shards an index is split in; a partial-failure fault drops the hits of one of them. */
export const SHARDS = 5;
const FAILED_SHARD = 3;

interface Candidate extends InstanceView {
  ref: InstanceRef;
  order: number;
  score: number;
}

function termMatches(field: string, values: ReadonlySet<string>, doc: Candidate): boolean {
  const { c, inst } = doc.ref;
  switch (field) {
    case 'numeroProcesso':
      return values.has(c.numero);
    case 'classe.codigo':
      return values.has(String(inst.classe.codigo));
    case 'orgaoJulgador.codigo':
      return values.has(String(inst.orgao.codigo));
    case 'movimentos.codigo':
      for (let i = 0; i < doc.visible; i++) if (values.has(String(inst.movements[i].type.codigo))) return true;
      return false;
    default:
      return false;
  }
}

/** The score of `doc` for `clause`, or null when it does not match (filter context scores 0). */
function evaluate(clause: Clause, doc: Candidate): number | null {
  switch (clause.kind) {
    case 'all':
      return 1;
    case 'terms':
      return termMatches(clause.field, clause.values, doc) ? clause.score : null;
    case 'range': {
      const t = doc.lastAt;
      const ok =
        (clause.gt === undefined || t > clause.gt) &&
        (clause.gte === undefined || t >= clause.gte) &&
        (clause.lt === undefined || t < clause.lt) &&
        (clause.lte === undefined || t <= clause.lte);
      return ok ? 1 : null;
    }
    case 'bool': {
      let score = 0;
      for (const c of clause.must) {
        const s = evaluate(c, doc);
        if (s === null) return null;
        score += s;
      }
      for (const c of clause.filter) if (evaluate(c, doc) === null) return null;
      for (const c of clause.mustNot) if (evaluate(c, doc) !== null) return null;
      let matched = 0;
      for (const c of clause.should) {
        const s = evaluate(c, doc);
        if (s !== null) {
          matched++;
          score += s;
        }
      }
      if (matched < clause.minimumShouldMatch) return null;
      return clause.must.length + clause.should.length === 0 ? (clause.filter.length + clause.mustNot.length === 0 ? 1 : 0) : score;
    }
  }
}

function sortValue(key: SortKey, doc: Candidate): number | string {
  if (key.field === 'timestamp') return doc.lastAt;
  if (key.field === 'id') return doc.ref.inst.id;
  return doc.score;
}

function compareValues(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function comparator(sort: SortKey[]): (a: Candidate, b: Candidate) => number {
  return (a, b) => {
    for (const key of sort) {
      const d = compareValues(sortValue(key, a), sortValue(key, b));
      if (d !== 0) return key.order === 'asc' ? d : -d;
    }
    return a.order - b.order;
  };
}

/** `search_after` values as the sort fields hold them (timestamps as epoch ms, ids as text). */
function afterValues(sort: SortKey[], after: (number | string)[], now: number): (number | string)[] {
  return sort.map((key, i) => {
    if (key.field === 'id') return String(after[i]);
    if (key.field === 'timestamp') return parseDate(after[i], false, now);
    return Number(after[i]);
  });
}

function isAfter(sort: SortKey[], after: (number | string)[], doc: Candidate): boolean {
  for (let i = 0; i < sort.length; i++) {
    const d = compareValues(sortValue(sort[i], doc), after[i]);
    if (d !== 0) return sort[i].order === 'asc' ? d > 0 : d < 0;
  }
  return false;
}

function collect(refs: readonly InstanceRef[], query: Clause, now: number, partialShards: boolean): Candidate[] {
  const found: Candidate[] = [];
  refs.forEach((ref, order) => {
    const visible = visibleMovementCount(ref.inst, now);
    if (visible === 0) return;
    if (partialShards && hash32(ref.inst.id) % SHARDS === FAILED_SHARD) return;
    const doc: Candidate = { ref, order, visible, lastAt: ref.inst.movements[visible - 1].at, score: 0 };
    const score = evaluate(query, doc);
    if (score === null) return;
    doc.score = score;
    found.push(doc);
  });
  return found;
}

function shards(alias: string, partial: boolean): Record<string, unknown> {
  if (!partial) return { total: SHARDS, successful: SHARDS, skipped: 0, failed: 0 };
  return {
    total: SHARDS,
    successful: SHARDS - 1,
    skipped: 0,
    failed: 1,
    failures: [
      {
        shard: FAILED_SHARD,
        index: alias,
        node: 'sandbox-node-2',
        reason: { type: 'node_not_connected_exception', reason: '[sandbox-node-2][127.0.0.1:9300] Node not connected' },
      },
    ],
  };
}

function total(count: number, track: boolean | number): { value: number; relation: 'eq' | 'gte' } | undefined {
  if (track === false) return undefined;
  if (track === true || count <= track) return { value: count, relation: 'eq' };
  return { value: track, relation: 'gte' };
}

export function runSearch(dataset: SandboxDataset, alias: string, req: SearchRequest, now: number, partialShards: boolean): Record<string, unknown> {
  const started = performance.now();
  const profile = dataset.profileOf(alias)!;
  let docs = collect(dataset.instancesOf(alias) ?? [], req.query, now, partialShards);
  const count = docs.length;
  if (req.sort) docs.sort(comparator(req.sort));
  else docs.sort((a, b) => b.score - a.score || a.order - b.order);
  if (req.sort && req.searchAfter) {
    const after = afterValues(req.sort, req.searchAfter, now);
    docs = docs.filter((d) => isAfter(req.sort!, after, d));
  }
  const page = docs.slice(req.from, req.from + req.size);
  const scored = !req.sort;
  const hits = page.map((d) => {
    const hit: Record<string, unknown> = { _index: alias };
    if (profile.longIds) hit._type = '_doc';
    hit._id = d.ref.inst.id;
    hit._score = scored ? d.score : null;
    if (req.source.enabled) hit._source = filterSource(renderSource(d.ref, profile, d), req.source);
    if (req.sort) hit.sort = req.sort.map((k) => sortValue(k, d));
    return hit;
  });
  const hitsTotal = total(count, req.trackTotalHits);
  return {
    took: Math.max(1, Math.round(performance.now() - started)),
    timed_out: false,
    _shards: shards(alias, partialShards),
    hits: {
      ...(hitsTotal ? { total: hitsTotal } : {}),
      max_score: scored && docs.length > 0 ? docs.reduce((m, d) => Math.max(m, d.score), 0) : null,
      hits,
    },
  };
}
