/** Processes and summary of a party, through HTTP against the sandbox's case-details provider. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { cpfCheckDigits } from '../../platform/identifiers/cpf-cnpj.ts';
import { createHarness, json } from '../../../test/harness.ts';

const h = await createHarness({ env: { TRAMITA_RATE_LIMITS: 'search=100000/60s' } });
test.after(() => h.close());
const dataset = h.sources.sandbox!.dataset;
const example = dataset.examples();

test("GET /v1/processos?cpf_cnpj= lists the party's cases newest first, with its role, one flat charge per page", async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const expected = dataset.casesByDocument(example.document!);
  assert.ok(expected.length >= 2, 'the sandbox reuses parties across cases');
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.inject({
      method: 'GET',
      url: `/v1/processos?cpf_cnpj=${example.document}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      headers: acc.headers,
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.equal(body.meta.creditsCharged, 0.3);
    assert.equal(body.meta.pagination.total, expected.length);
    for (const item of body.data.processos) {
      seen.push(item.numeroCnj);
      assert.equal(item.envolvimento.nome, example.name);
    }
    cursor = body.meta.pagination.nextCursor;
  } while (cursor);
  assert.deepEqual(
    seen,
    expected.map((c) => formatCnj(c.numero)),
  );
});

test('an invalid CPF/CNPJ is 400 INVALID_CPF_CNPJ; a valid one with no case is an empty, free page', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const bad = await h.inject({ method: 'GET', url: '/v1/processos?cpf_cnpj=123.456.789-00', headers: acc.headers });
  assert.equal(bad.statusCode, 400);
  assert.equal(json(bad).error.code, 'INVALID_CPF_CNPJ');
  const base = '000000019';
  const nobody = await h.inject({ method: 'GET', url: `/v1/processos?cpf_cnpj=${base}${cpfCheckDigits(base)}`, headers: acc.headers });
  assert.equal(nobody.statusCode, 200, nobody.body);
  assert.deepEqual(json(nobody).data.processos, []);
  assert.equal(json(nobody).meta.creditsCharged, 0);
});

test('GET /v1/envolvidos/resumo sums a party up, by CPF/CNPJ or by name', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const expected = dataset.casesByDocument(example.document!);
  const byDoc = json(await h.inject({ method: 'GET', url: `/v1/envolvidos/resumo?cpf_cnpj=${example.document}`, headers: acc.headers }));
  assert.equal(byDoc.data.quantidadeProcessos, expected.length);
  assert.deepEqual(byDoc.data.nomes, [example.name]);
  assert.equal(
    byDoc.data.porTribunal.reduce((n: number, x: { quantidade: number }) => n + x.quantidade, 0),
    expected.length,
  );
  assert.ok(byDoc.data.porPolo.every((x: { chave: string }) => ['ATIVO', 'PASSIVO', 'OUTROS'].includes(x.chave)));
  assert.equal(byDoc.meta.creditsCharged, 0.2);

  const byName = json(
    await h.inject({ method: 'GET', url: `/v1/envolvidos/resumo?nome=${encodeURIComponent(example.name!.toUpperCase())}`, headers: acc.headers }),
  );
  assert.ok(byName.data.quantidadeProcessos >= expected.length);

  const neither = await h.inject({ method: 'GET', url: '/v1/envolvidos/resumo', headers: acc.headers });
  assert.equal(json(neither).error.code, 'MISSING_PARAMETER');
});

test('a CPF search read by page numbers shows the pages the cursor walks, with their positions (current_page, from, to)', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const total = dataset.casesByDocument(example.document!).length;
  const url = (q: string) => `/v1/processos?cpf_cnpj=${example.document}&limit=1&${q}`;
  const first = json(await h.inject({ method: 'GET', url: url('page=1'), headers: acc.headers }));
  const byCursor = json(await h.inject({ method: 'GET', url: url(`cursor=${first.meta.pagination.nextCursor}`), headers: acc.headers }));
  const second = json(await h.inject({ method: 'GET', url: url('page=2'), headers: acc.headers }));
  const numbers = (body: { data: { processos: { numeroCnj: string }[] } }) => body.data.processos.map((p) => p.numeroCnj);
  assert.deepEqual(numbers(second), numbers(byCursor));
  assert.notDeepEqual(numbers(second), numbers(first));
  assert.deepEqual(
    [second.data.pagination.current_page, second.data.pagination.from, second.data.pagination.to, second.data.pagination.last_page],
    [2, 2, 2, total],
  );
  assert.equal(second.meta.pagination.page, 2);
  assert.equal(byCursor.meta.pagination.page, null);
  const last = json(await h.inject({ method: 'GET', url: url(`page=${total}`), headers: acc.headers }));
  assert.equal(last.meta.pagination.nextCursor, null);
  assert.equal(last.data.processos.length, 1);
  const past = json(await h.inject({ method: 'GET', url: url(`page=${total + 1}`), headers: acc.headers }));
  assert.deepEqual([past.data.processos, past.data.pagination.from, past.meta.creditsCharged], [[], null, 0]);
  const foreign = await h.inject({ method: 'GET', url: url(`cursor=${Buffer.from('{"l":"x","p":{"o":1}}').toString('base64url')}`), headers: acc.headers });
  assert.equal(json(foreign).error.code, 'INVALID_CURSOR');
});
