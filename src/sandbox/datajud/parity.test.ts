/**
 * The simulated DataJud answers with the structure of the real one (DESIGN.md §5): a search over HTTP
 * compared by the structural comparator (sandbox/parity.ts) with both real answers at once
 * (sources/datajud/fixtures: TRF4's `datajud-sample-response.json` and the wiki's TRF1 example),
 * since courts differ (datajud.md §7: `dataAjuizamento` compact at TRF4, ISO at TRF1; movements with
 * or without an órgão): the simulated answer is TRF4's page with TRF1's hits added.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { shapeOf, structuralDifferences, type ParityOptions } from '../parity.ts';
import { esSearch, startTestSandbox, type TestSandbox } from '../testing.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const capture = (name: string) => JSON.parse(readFileSync(new URL(`../../sources/datajud/fixtures/${name}.json`, import.meta.url), 'utf8'));
const REAL = shapeOf(capture('datajud-sample-response'), capture('datajud-wiki-exemplo1-response'));
/**
 * What two captures cannot show: a score of 1.0 (a match_all, a filter) reads as the JSON integer 1,
 * so integers are real scores too and decimals need not be sent; `_type` is the wiki example's older
 * cluster (TRF4's capture, ES 7, has none).
 */
const OPTIONS: ParityOptions = {
  alsoAllowed: { 'hits.max_score': ['integer'], 'hits.hits[]._score': ['integer'] },
  notRequired: ['hits.max_score', 'hits.hits[]._score', 'hits.hits[]._type'],
};

async function simulated() {
  const trf4 = (await esSearch(sb, 'api_publica_trf4', { size: 10 })).body;
  const trf1 = (await esSearch(sb, 'api_publica_trf1', { size: 10 })).body;
  return { ...trf4, hits: { ...trf4.hits, hits: [...trf4.hits.hits, ...trf1.hits.hits] } };
}

test(
  'a search answers with the structure of the real ones: envelope, hits, _source keys in a real order, movements and ' +
    'complements in the real orders, both date spellings',
  async () => {
    const answer = await simulated();
    assert.ok(answer.hits.hits.length > 10, 'hits of both courts');
    assert.deepEqual(structuralDifferences(REAL, answer, OPTIONS), []);
  },
);

test('the comparison catches a simulator that drifts: dataHora as dd/mm/aaaa', async () => {
  const answer = await simulated();
  const br = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');
  answer.hits.hits = answer.hits.hits.map((h: any) => ({
    ...h,
    _source: { ...h._source, movimentos: h._source.movimentos.map((m: any) => ({ ...m, dataHora: br(m.dataHora) })) },
  }));
  assert.ok(structuralDifferences(REAL, answer, OPTIONS).some((d) => /movimentos\[\]\.dataHora: the simulator sends string:br-date/.test(d)));
});
