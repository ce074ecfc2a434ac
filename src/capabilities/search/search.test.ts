/** Search by term through HTTP: numbers, documents, and ranked accent-insensitive text, on both engines. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { foldText } from '../../platform/text.ts';
import { createHarness, json } from '../../../test/harness.ts';

const h = await createHarness({ env: { TRAMITA_RATE_LIMITS: 'search=100000/60s,lookup=100000/60s' } });
test.after(() => h.close());
const dataset = h.sources.sandbox!.dataset;

function search(q: string, headers: Record<string, string>, path = '/v1/busca/termo') {
  return h.inject({ method: 'GET', url: `${path}?q=${encodeURIComponent(q)}`, headers });
}

test('a CNJ number finds that case; the compatibility path /v1/busca answers the same', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const c = dataset.cases.find((x) => x.filedAt <= dataset.now())!;
  const res = json(await search(formatCnj(c.numero), acc.headers));
  assert.deepEqual(
    res.data.items.map((x: { numeroCnj: string }) => x.numeroCnj),
    [formatCnj(c.numero)],
  );
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
  assert.ok(
    body.data.items.every((x: { partes: string[] }) => x.partes.includes(name!)),
    'every hit has the party',
  );
  const scores = body.data.items.map((x: { relevancia: number }) => x.relevancia);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  );
  // A prefix of the last word still matches.
  const words = folded.split(' ');
  const prefix = json(await search(`${words[0]} ${words[words.length - 1].slice(0, 4)}`, acc.headers));
  assert.ok(prefix.data.items.length > 0);
});

type Hit = { numeroCnj: string; relevancia: number; partes: string[] };

/** Every hit of a query, page after page through `nextCursor`. */
async function allPages(q: string, headers: Record<string, string>, limit: number): Promise<Hit[]> {
  const hits: Hit[] = [];
  for (let cursor: string | null = ''; cursor !== null; ) {
    const body: { data: { items: Hit[]; pagination: { nextCursor?: string | null } }; meta: { pagination: { nextCursor: string | null } } } = json(
      await h.inject({ method: 'GET', url: `/v1/busca/termo?q=${encodeURIComponent(q)}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, headers }),
    );
    hits.push(...body.data.items);
    cursor = body.data.pagination.nextCursor ?? body.meta.pagination.nextCursor;
  }
  return hits;
}

test('a whole name answers with the cases where that person is a party, the same page after page as at once', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const { name } = dataset.examples();
  const all = json(await search(name!.toUpperCase(), acc.headers)).data.items as Hit[];
  assert.ok(all.length > 2, 'the busiest party has several cases');
  assert.ok(
    all.every((x) => x.partes.some((p) => foldText(p) === foldText(name!)) && x.relevancia === 1),
    'exact name, full relevance',
  );
  const paged = await allPages(name!, acc.headers, 2);
  assert.deepEqual(
    paged.map((x) => x.numeroCnj),
    all.map((x) => x.numeroCnj),
  );
  assert.equal(new Set(paged.map((x) => x.numeroCnj)).size, paged.length, 'no case twice');
});

test('the first words of a name find the names they begin, the exact ones first', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const { name } = dataset.examples();
  await search(name!, acc.headers); // the provider's cases of that person join the store
  const start = foldText(name!).split(' ').slice(0, 2).join(' ');
  const hits = await allPages(start, acc.headers, 20);
  assert.ok(hits.length > 0);
  for (const x of hits) {
    assert.ok(
      x.partes.some((p) => foldText(p) === start || foldText(p).startsWith(`${start} `)),
      `${x.numeroCnj} has a name beginning "${start}"`,
    );
  }
  const scores = hits.map((x) => x.relevancia);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  );
});

test('words out of order, or a single word, are searched in the full text', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const { name } = dataset.examples();
  await search(name!, acc.headers);
  const words = foldText(name!).split(' ');
  const reversed = json(await search([...words].reverse().join(' '), acc.headers)).data.items as Hit[];
  assert.ok(
    reversed.some((x) => x.partes.some((p) => foldText(p) === foldText(name!))),
    'the person is found with the words reversed',
  );
  // One word (the last) also finds parties whose name does not begin with it.
  const surname = words[words.length - 1]!;
  const single = await allPages(surname, acc.headers, 100);
  assert.ok(single.some((x) => x.partes.some((p) => foldText(p).split(' ').includes(surname) && !foldText(p).startsWith(surname))));
});

test('no result is an empty, free page; a missing term is 400 MISSING_PARAMETER', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const none = json(await search('zzqxw inexistente', acc.headers));
  assert.deepEqual(none.data.items, []);
  assert.equal(none.meta.creditsCharged, 0);
  const missing = await h.inject({ method: 'GET', url: '/v1/busca/termo', headers: acc.headers });
  assert.equal(json(missing).error.code, 'MISSING_PARAMETER');
});
