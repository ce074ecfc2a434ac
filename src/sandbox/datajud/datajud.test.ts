/** The DataJud simulator over real HTTP on 127.0.0.1: protocol, DSL, pagination, quirks, time. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SandboxCase } from '../data/model.ts';
import { visibleMovementCount } from '../data/model.ts';
import { esSearch, startTestSandbox, TEST_DATAJUD_KEY, type TestSandbox } from '../testing.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const now = () => sb.dataset.now();
const visible = (c: SandboxCase) => c.instances.filter((i) => visibleMovementCount(i, now()) > 0);
/** The alias with the most cases: TJSP at these sizes. */
function busiestAlias(): string {
  const counts = new Map<string, number>();
  for (const c of sb.dataset.cases) counts.set(c.alias, (counts.get(c.alias) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}
function visibleIdsOf(alias: string): string[] {
  return sb.dataset
    .instancesOf(alias)!
    .filter((r) => visibleMovementCount(r.inst, now()) > 0)
    .map((r) => r.inst.id);
}

describe('lookups', () => {
  test('terms on numeroProcesso returns one document per visible instance, no parties', async () => {
    const alias = busiestAlias();
    const cases = sb.dataset.cases.filter((c) => c.alias === alias && c.filedAt <= now()).slice(0, 40);
    const { status, body } = await esSearch(sb, alias, { size: 200, query: { terms: { numeroProcesso: cases.map((c) => c.numero) } } });
    assert.equal(status, 200);
    const expected = cases.flatMap((c) => visible(c).map((i) => i.id)).sort();
    assert.deepEqual(body.hits.hits.map((h: { _id: string }) => h._id).sort(), expected);
    assert.deepEqual(body.hits.total, { value: expected.length, relation: 'eq' });
    for (const hit of body.hits.hits) {
      assert.equal(hit._index, alias);
      assert.equal(hit._source.id, hit._id);
      for (const key of ['partes', 'polos', 'advogados', 'valorCausa']) assert.equal(key in hit._source, false);
    }
  });

  test('match on a number finds every grau; the response has the shape of datajud.md §7', async () => {
    const c = sb.dataset.cases.find((x) => x.filedAt <= now() && visible(x).length === 2)!;
    const { body } = await esSearch(sb, c.alias, { query: { match: { numeroProcesso: c.numero } } });
    assert.equal(typeof body.took, 'number');
    assert.equal(body.timed_out, false);
    assert.deepEqual(body._shards, { total: 5, successful: 5, skipped: 0, failed: 0 });
    assert.equal(body.hits.hits.length, 2);
    assert.deepEqual(new Set(body.hits.hits.map((h: { _source: { grau: string } }) => h._source.grau)), new Set(visible(c).map((i) => i.grau)));
    const src = body.hits.hits[0]._source;
    for (const key of [
      'id',
      'tribunal',
      'grau',
      'numeroProcesso',
      'dataAjuizamento',
      'nivelSigilo',
      'orgaoJulgador',
      'classe',
      'sistema',
      'formato',
      'dataHoraUltimaAtualizacao',
      '@timestamp',
      'movimentos',
      'assuntos',
    ]) {
      assert.ok(key in src, key);
    }
    assert.equal(typeof src.orgaoJulgador.codigo, 'number');
    assert.match(src['@timestamp'], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
    assert.ok(body.hits.hits[0]._score > 0);
  });

  test('classe, órgão and movement codes in bool must/filter/should/must_not', async () => {
    const alias = busiestAlias();
    const ref = sb.dataset.instancesOf(alias)!.find((r) => visibleMovementCount(r.inst, now()) > 5)!;
    const { inst } = ref;
    const must = [{ match: { 'classe.codigo': inst.classe.codigo } }, { term: { 'orgaoJulgador.codigo': String(inst.orgao.codigo) } }];
    const { body } = await esSearch(sb, alias, { size: 1000, query: { bool: { must, filter: [{ term: { 'movimentos.codigo': 26 } }] } } });
    assert.ok(body.hits.hits.some((h: { _id: string }) => h._id === inst.id));
    for (const h of body.hits.hits) {
      assert.equal(h._source.classe.codigo, inst.classe.codigo);
      assert.equal(h._source.orgaoJulgador.codigo, inst.orgao.codigo);
      assert.ok(h._source.movimentos.some((m: { codigo: number }) => m.codigo === 26));
    }
    const none = await esSearch(sb, alias, { size: 1000, query: { bool: { must, must_not: [{ term: { 'classe.codigo': inst.classe.codigo } }] } } });
    assert.equal(none.body.hits.hits.length, 0);
    const either = await esSearch(sb, alias, {
      size: 0,
      query: { bool: { should: [{ term: { 'orgaoJulgador.codigo': inst.orgao.codigo } }, { term: { 'classe.codigo': inst.classe.codigo } }] } },
    });
    assert.ok(either.body.hits.total.value >= body.hits.total.value);
  });
});

describe('paging', () => {
  test('search_after on [@timestamp, id] visits every document exactly once', async () => {
    const alias = busiestAlias();
    const seen: string[] = [];
    let after: unknown[] | undefined;
    let lastSort: [number, string] | undefined;
    for (let page = 0; page < 1000; page++) {
      const { body } = await esSearch(sb, alias, {
        size: 7,
        sort: [{ '@timestamp': { order: 'asc' } }, { id: 'asc' }],
        ...(after ? { search_after: after } : {}),
      });
      if (body.hits.hits.length === 0) break;
      for (const h of body.hits.hits) {
        assert.equal(h._score, null);
        assert.equal(h.sort.length, 2);
        assert.equal(h.sort[0], Date.parse(h._source['@timestamp'].replace(/(\.\d{3})\d+Z$/, '$1Z')));
        if (lastSort) assert.ok(h.sort[0] > lastSort[0] || (h.sort[0] === lastSort[0] && h.sort[1] > lastSort[1]));
        lastSort = h.sort;
        seen.push(h._id);
      }
      after = body.hits.hits.at(-1).sort;
    }
    assert.equal(new Set(seen).size, seen.length, 'no document twice');
    assert.deepEqual(seen.sort(), visibleIdsOf(alias).sort());
  });

  test('from/size, size 0, total capping and track_total_hits', async () => {
    const alias = busiestAlias();
    const all = visibleIdsOf(alias).length;
    const first = await esSearch(sb, alias, { size: 5 });
    const second = await esSearch(sb, alias, { size: 5, from: 5 });
    const ids = [...first.body.hits.hits, ...second.body.hits.hits].map((h: { _id: string }) => h._id);
    assert.equal(new Set(ids).size, 10);
    const counted = await esSearch(sb, alias, { size: 0 });
    assert.deepEqual(counted.body.hits.total, { value: all, relation: 'eq' });
    assert.deepEqual(counted.body.hits.hits, []);
    const capped = await esSearch(sb, alias, { size: 0, track_total_hits: 5 });
    assert.deepEqual(capped.body.hits.total, { value: 5, relation: 'gte' });
    const untracked = await esSearch(sb, alias, { size: 1, track_total_hits: false });
    assert.equal(untracked.body.hits.total, undefined);
    const exact = await esSearch(sb, alias, { size: 0, track_total_hits: true });
    assert.deepEqual(exact.body.hits.total, { value: all, relation: 'eq' });
  });

  test('range on dataHoraUltimaAtualizacao / @timestamp splits the index', async () => {
    const alias = busiestAlias();
    const { body } = await esSearch(sb, alias, { size: 10_000, sort: ['@timestamp'] });
    const times = body.hits.hits.map((h: { sort: number[] }) => h.sort[0]);
    const pivot = times[Math.floor(times.length / 2)];
    const iso = new Date(pivot).toISOString();
    const gte = await esSearch(sb, alias, { size: 10_000, query: { bool: { filter: [{ range: { dataHoraUltimaAtualizacao: { gte: iso } } }] } } });
    const lt = await esSearch(sb, alias, { size: 0, query: { range: { '@timestamp': { lt: pivot } } } });
    assert.equal(gte.body.hits.total.value + lt.body.hits.total.value, times.length);
    assert.equal(gte.body.hits.total.value, times.filter((t: number) => t >= pivot).length);
    for (const h of gte.body.hits.hits) assert.ok(Date.parse(h._source.dataHoraUltimaAtualizacao) >= pivot);
    const day = iso.slice(0, 10);
    const lteDay = await esSearch(sb, alias, { size: 0, query: { range: { dataHoraUltimaAtualizacao: { lte: day } } } });
    assert.equal(lteDay.body.hits.total.value, times.filter((t: number) => t <= Date.parse(`${day}T23:59:59.999Z`)).length);
  });

  test('_source includes and excludes', async () => {
    const alias = busiestAlias();
    const { body } = await esSearch(sb, alias, { size: 3, _source: ['numeroProcesso', 'grau', 'movimentos.codigo'] });
    for (const h of body.hits.hits) {
      assert.deepEqual(Object.keys(h._source).sort(), ['grau', 'movimentos', 'numeroProcesso']);
      for (const m of h._source.movimentos) assert.deepEqual(Object.keys(m), ['codigo']);
    }
    const excluded = await esSearch(sb, alias, { size: 1, _source: { excludes: ['movimentos'] } });
    assert.equal('movimentos' in excluded.body.hits.hits[0]._source, false);
    const none = await esSearch(sb, alias, { size: 1, _source: false });
    assert.equal('_source' in none.body.hits.hits[0], false);
  });
});

describe('errors', () => {
  test('unsupported query or key, bad window, bad search_after → 400 with an ES body', async () => {
    const alias = busiestAlias();
    const cases: [unknown, string][] = [
      [{ query: { wildcard: { numeroProcesso: '?????????????816????' } } }, 'parsing_exception'],
      [{ aggs: { x: { cardinality: { field: 'orgaoJulgador.codigo' } } } }, 'parsing_exception'],
      [{ query: { match: { tribunal: 'TJSP' } } }, 'parsing_exception'],
      [{ query: { term: { 'classe.codigo': 'abc' } } }, 'query_shard_exception'],
      [{ size: 10_001 }, 'illegal_argument_exception'],
      [{ size: 9_000, from: 2_000 }, 'illegal_argument_exception'],
      [{ search_after: [1] }, 'parsing_exception'],
      [{ sort: ['@timestamp'], search_after: [1, 'x'] }, 'illegal_argument_exception'],
      [{ sort: [{ numeroProcesso: 'asc' }] }, 'query_shard_exception'],
      ['{"query": ', 'x_content_parse_exception'],
    ];
    for (const [query, type] of cases) {
      const { status, body } = await esSearch(sb, alias, query);
      assert.equal(status, 400, JSON.stringify(query));
      assert.equal(body.status, 400);
      assert.equal(body.error.type, type, JSON.stringify(query));
      assert.equal(body.error.root_cause[0].type, type);
    }
  });

  test('credentials: APIKey and ApiKey work; missing or wrong key → 401 security_exception', async () => {
    const alias = busiestAlias();
    assert.equal((await esSearch(sb, alias, { size: 0 }, { authorization: `ApiKey ${TEST_DATAJUD_KEY}` })).status, 200);
    const wrong = await esSearch(sb, alias, { size: 0 }, { authorization: 'APIKey not-the-key' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.type, 'security_exception');
    const res = await fetch(`${sb.datajudUrl}/${alias}/_search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 401);
    assert.match((await res.json()).error.reason, /missing authentication credentials/);
    // Credentials are checked before the index exists or not, as behind ES security.
    assert.equal((await esSearch(sb, 'api_publica_stf', {}, { authorization: 'APIKey nope' })).status, 401);
  });

  test('unknown alias → 404 index_not_found_exception; tre-dft is the official TRE-DF alias', async () => {
    const stf = await esSearch(sb, 'api_publica_stf', { size: 0 });
    assert.equal(stf.status, 404);
    assert.equal(stf.body.error.type, 'index_not_found_exception');
    assert.equal(stf.body.error.reason, 'no such index [api_publica_stf]');
    assert.equal((await esSearch(sb, 'api_publica_tre-df', { size: 0 })).status, 404);
    assert.equal((await esSearch(sb, 'api_publica_tre-dft', { size: 0 })).status, 200);
  });

  test('a body that is not declared as JSON → 406', async () => {
    const { status } = await esSearch(sb, busiestAlias(), { size: 0 }, { 'content-type': 'text/plain' });
    assert.equal(status, 406);
  });
});

describe('quirks (datajud.md §7–§8)', () => {
  async function firstSource(alias: string) {
    const { body } = await esSearch(sb, alias, { size: 50 });
    return body.hits.hits.map((h: { _source: Record<string, unknown> }) => h._source);
  }

  test('dataAjuizamento compact on eproc courts, ISO at midnight elsewhere; short and long ids', async () => {
    const trf4 = await firstSource('api_publica_trf4');
    for (const s of trf4) {
      assert.match(s.dataAjuizamento as string, /^\d{14}$/);
      assert.match(s.id as string, /^TRF4_(G1|G2|JE|TR)_\d{20}$/);
      assert.match(s.dataHoraUltimaAtualizacao as string, /\.\d{6}Z$/);
    }
    const trf1 = await firstSource('api_publica_trf1');
    for (const s of trf1) {
      assert.match(s.dataAjuizamento as string, /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
      assert.match(s.id as string, /^TRF1_\d+_(G1|G2|JE|TR)_\d+_\d{20}$/);
    }
  });

  test('TJDFT sends assuntos as nested arrays; movement órgão codes are strings', async () => {
    for (const s of await firstSource('api_publica_tjdft')) {
      assert.ok((s.assuntos as unknown[]).every((a) => Array.isArray(a) && a.length === 1));
      for (const m of s.movimentos as { orgaoJulgador?: { codigo: unknown } }[]) if (m.orgaoJulgador) assert.equal(typeof m.orgaoJulgador.codigo, 'string');
    }
  });

  test('movimentos come unsorted, some with exact duplicates', async () => {
    const ref = sb.dataset.cases
      .flatMap((c) => c.instances.map((inst) => ({ c, inst })))
      .find(({ c, inst }) => c.filedAt <= now() && inst.listing.length > inst.movements.length && visibleMovementCount(inst, now()) === inst.movements.length)!;
    const { body } = await esSearch(sb, ref.c.alias, { query: { term: { numeroProcesso: ref.c.numero } }, size: 10 });
    const src = body.hits.hits.find((h: { _id: string }) => h._id === ref.inst.id)._source;
    const keys = src.movimentos.map((m: unknown) => JSON.stringify(m));
    assert.ok(new Set(keys).size < keys.length, 'an exact duplicate');
    assert.equal(src.movimentos.length, ref.inst.listing.length);
  });
});

describe('time', () => {
  test('future cases and movements stay invisible until the clock passes them', async () => {
    const start = sb.clock.now();
    try {
      const future = sb.dataset.cases.find((c) => c.filedAt > now())!;
      assert.ok(future, 'the data set has a future case');
      assert.equal((await esSearch(sb, future.alias, { query: { match: { numeroProcesso: future.numero } } })).body.hits.total.value, 0);
      const growing = sb.dataset.cases
        .flatMap((c) => c.instances.map((inst) => ({ c, inst })))
        .find(({ c, inst }) => c.filedAt <= now() && inst.movements.at(-1)!.at > now() && inst.listing.length === inst.movements.length)!;
      const count = async () => {
        const { body } = await esSearch(sb, growing.c.alias, { query: { term: { numeroProcesso: growing.c.numero } } });
        return body.hits.hits.find((h: { _id: string }) => h._id === growing.inst.id)._source.movimentos.length;
      };
      const before = await count();
      assert.equal(before, visibleMovementCount(growing.inst, now()));
      sb.clock.set(new Date(Math.max(future.filedAt, growing.inst.movements.at(-1)!.at)));
      assert.equal((await esSearch(sb, future.alias, { query: { match: { numeroProcesso: future.numero } } })).body.hits.total.value, 1);
      assert.equal(await count(), growing.inst.movements.length);
      assert.ok(growing.inst.movements.length > before);
    } finally {
      sb.clock.set(start);
    }
  });
});
