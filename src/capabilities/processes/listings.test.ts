/**
 * The case's two listings (movements, public documents) through the one listing handler (issue 55
 * item 6): their cursors walk every item once in the order of the whole list, numbered pages land where
 * the cursor does, and a cursor from elsewhere is a 400 before any source is asked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json } from '../../../test/harness.ts';

const h = await createHarness({ env: { TRAMITA_RATE_LIMITS: 'lookup=100000/60s,async=100000/60s,download=100000/60s,search=100000/60s' } });
test.after(() => h.close());

const sandbox = h.sources.sandbox!;
const visible = sandbox.dataset.cases.filter((c) => c.filedAt <= sandbox.dataset.now());
const get = (url: string, headers: Record<string, string>) => h.inject({ method: 'GET', url, headers });

/** What these tests read of a listing's page. */
interface ListingBody {
  data: Record<string, unknown> & { numeroCnj: string; total: number };
  meta: { pagination: { nextCursor: string | null; total: number }; documentosEm?: string };
}

/** Every page of a listing by cursor, `limit` at a time: the items' ids, and each page's body. */
async function walk(url: string, name: string, limit: number, headers: Record<string, string>) {
  const ids: string[] = [];
  const pages: ListingBody[] = [];
  let cursor: string | null = null;
  do {
    const res = await get(`${url}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, headers);
    assert.equal(res.statusCode, 200, res.body);
    const body = json<ListingBody>(res);
    pages.push(body);
    ids.push(...(body.data[name] as { id: string }[]).map((i) => i.id));
    cursor = body.meta.pagination.nextCursor;
  } while (cursor);
  return { ids, pages };
}

test('movements: by cursor and by page number, the same order as one page of all; a foreign cursor is 400 with no lookup and no charge', async () => {
  const acc = await h.createAccount({ credits: 100_000 });
  const [c, other] = visible.filter((x) => x.instances.reduce((n, i) => n + i.movements.length, 0) > 6);
  const url = `/v1/processos/cnj/${c!.numero}/movimentacoes`;
  const all = json(await get(`${url}?limit=100`, acc.headers));
  const { ids, pages } = await walk(url, 'movimentacoes', 3, acc.headers);
  assert.deepEqual(
    ids,
    all.data.movimentacoes.map((m: { id: string }) => m.id),
  );
  for (const p of pages) {
    assert.equal(p.data.numeroCnj, all.data.numeroCnj);
    assert.equal(p.data.total, all.data.total);
    assert.equal(p.meta.pagination.total, all.data.total);
  }
  const second = json(await get(`${url}?limit=3&page=2`, acc.headers));
  assert.deepEqual(
    second.data.movimentacoes.map((m: { id: string }) => m.id),
    ids.slice(3, 6),
  );

  const charged = (await h.services.db.selectFrom('ledger').select('id').where('account_id', '=', acc.accountId).execute()).length;
  const foreign = await get(`/v1/processos/cnj/${other!.numero}/movimentacoes?cursor=${pages[0]!.meta.pagination.nextCursor}`, acc.headers);
  assert.equal(foreign.statusCode, 400, foreign.body);
  assert.equal(json(foreign).error.code, 'INVALID_CURSOR');
  assert.equal((await h.services.db.selectFrom('cases').select('numero_cnj').where('numero_cnj', '=', other!.numero).execute()).length, 0, 'not looked up');
  assert.equal((await h.services.db.selectFrom('ledger').select('id').where('account_id', '=', acc.accountId).execute()).length, charged);
});

test('public documents: by cursor and by page number, the same order as one page of all, with the total on every page', async () => {
  const acc = await h.createAccount({ credits: 100_000 });
  const c = visible.find((x) => x.documentos.length > 2)!;
  const refresh = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, headers: acc.headers });
  assert.equal(refresh.statusCode, 200, refresh.body);
  await h.runJobs();
  const url = `/v1/processos/cnj/${c.numero}/documentos-publicos`;
  const all = json(await get(`${url}?limit=100`, acc.headers));
  assert.equal(all.data.documentos.length, c.documentos.length);
  const { ids, pages } = await walk(url, 'documentos', 2, acc.headers);
  assert.deepEqual(
    ids,
    all.data.documentos.map((d: { id: string }) => d.id),
  );
  assert.equal(pages.length, Math.ceil(c.documentos.length / 2));
  for (const p of pages) {
    assert.equal(p.data.total, c.documentos.length);
    assert.equal(p.meta.pagination.total, c.documentos.length);
    assert.equal(p.meta.documentosEm, all.meta.documentosEm);
  }
  const second = json(await get(`${url}?limit=2&page=2`, acc.headers));
  assert.deepEqual(
    second.data.documentos.map((d: { id: string }) => d.id),
    ids.slice(2, 4),
  );
  const foreign = await get(`${url}?cursor=${pages[0]!.meta.pagination.nextCursor!.slice(0, -2)}`, acc.headers);
  assert.equal(json(foreign).error.code, 'INVALID_CURSOR');
});
