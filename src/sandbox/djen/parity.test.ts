/**
 * The simulated DJEN answers with the structure of the real one (DESIGN.md §5): `GET /comunicacao` by
 * OAB over HTTP compared by the structural comparator (sandbox/parity.ts) with the real answer
 * (sources/djen/fixtures/djen-comunicacao-sample.json): keys and their order, types, `yyyy-mm-dd` and
 * `dd/mm/aaaa` side by side, HTML texts, nesting.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { structuralDifferences, type ParityOptions } from '../parity.ts';
import { startTestSandbox, type TestSandbox } from '../testing.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ cases: 300 });
});
after(() => sb.close());

const REAL = JSON.parse(readFileSync(new URL('../../sources/djen/fixtures/djen-comunicacao-sample.json', import.meta.url), 'utf8'));

/**
 * What one capture cannot show (djen.md §4): `texto` is HTML or plain text (TJRJ's, with `\n\r`);
 * cancelled communications carry `motivo_cancelamento` and `data_cancelamento` (null in the capture,
 * whose items are all active; the date is spelled as the capture's other timestamps, `created_at`).
 */
const OPTIONS: ParityOptions = {
  alsoAllowed: { 'items[].texto': ['string:text'], 'items[].motivo_cancelamento': ['string:text'], 'items[].data_cancelamento': ['string:iso-local-datetime'] },
};

async function byOab() {
  const { oab } = sb.djen.examples();
  return (await fetch(`${sb.djenUrl}/api/v1/comunicacao?numeroOab=${oab!.numero}&ufOab=${oab!.uf}&itensPorPagina=100`)).json() as Promise<any>;
}

test('GET /comunicacao answers with the structure of djen-comunicacao-sample.json', async () => {
  assert.deepEqual(structuralDifferences(REAL, await byOab(), OPTIONS), []);
});

test('the comparison catches a simulator that drifts: data_disponibilizacao as dd/mm/aaaa', async () => {
  const body = await byOab();
  const drifted = { ...body, items: body.items.map((i: any) => ({ ...i, data_disponibilizacao: i.datadisponibilizacao })) };
  assert.ok(structuralDifferences(REAL, drifted, OPTIONS).some((d) => /items\[\]\.data_disponibilizacao: the simulator sends string:br-date/.test(d)));
});
