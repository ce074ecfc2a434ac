/** Search by term through HTTP: numbers, documents, and ranked accent-insensitive text, on both engines. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { createHarness, json } from '../../../test/harness.ts';

const h = await createHarness({ env: { TRAMITA_RATE_LIMITS: 'search=100000/60s,lookup=100000/60s' } });
test.after(() => h.close());
const dataset = h.sources.sandbox!.dataset;

function search(q: string, headers: Record<string, string>, path = '/v1/busca/termo') {
  return h.inject({ method: 'GET', url: `${path}?q=${encodeURIComponent(q)}`, headers });
}

test('a CNJ number finds that case; the compatibility path /v1/busca answers the same', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = dataset.cases.find((x) => x.filedAt <= Date.now())!;
  const res = json(await search(formatCnj(c.numero), acc.headers));
  assert.deepEqual(res.data.items.map((x: { numeroCnj: string }) => x.numeroCnj), [formatCnj(c.numero)]);
  const compat = json(await search(formatCnj(c.numero), acc.headers, '/v1/busca'));
  assert.deepEqual(compat.data, res.data);
});

test('party names are found without accents or case, ranked, and pulled from the provider on first search', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const { name } = dataset.examples();
  const folded = name!.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const res = await search(folded, acc.headers);
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.ok(body.data.items.length > 0);
  assert.ok(body.data.items.every((x: { partes: string[] }) => x.partes.includes(name!)), "every hit has the party");
  const scores = body.data.items.map((x: { relevancia: number }) => x.relevancia);
  assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  // A prefix of the last word still matches.
  const words = folded.split(' ');
  const prefix = json(await search(`${words[0]} ${words[words.length - 1].slice(0, 4)}`, acc.headers));
  assert.ok(prefix.data.items.length > 0);
});

test('no result is an empty, free page; a missing term is 400 MISSING_PARAMETER', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const none = json(await search('zzqxw inexistente', acc.headers));
  assert.deepEqual(none.data.items, []);
  assert.equal(none.meta.creditsCharged, 0);
  const missing = await h.inject({ method: 'GET', url: '/v1/busca/termo', headers: acc.headers });
  assert.equal(json(missing).error.code, 'MISSING_PARAMETER');
});
