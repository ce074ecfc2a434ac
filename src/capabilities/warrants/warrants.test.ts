/**
 * Arrest warrants through HTTP against the sandbox's providers (spec §4.7, issue 17): CONSTA and
 * NADA_CONSTA, both charged; every provider failure an uncharged error, never NADA_CONSTA; no provider,
 * SOURCE_NOT_CONFIGURED; precise 400s before the provider is asked; the Predictus-shaped adapter; and
 * no CPF in the logs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { cpfCheckDigits, formatCpf } from '../../platform/identifiers/cpf-cnpj.ts';
import { parseNumeroPeca } from '../../platform/identifiers/peca.ts';
import { WarrantsConnector } from '../../sources/warrants/connector.ts';
import { warrantCpfs } from './testing.ts';

const h = await createHarness({
  captureLogs: true,
  env: { DJEN_TIMEOUT_MS: '300', TRAMITA_DEV_TIME_SCALE: '1000', TRAMITA_RATE_LIMITS: 'lookup=100000/60s,reference=100000/60s' },
});
test.after(() => h.close());
const sandbox = h.sources.sandbox!;
const PRICE = 50; // mandados.consulta in config/prices.json
const { comMandado, semMandado } = warrantCpfs(h);
const get = (acc: TestAccount, qs: string) => h.inject({ method: 'GET', url: `/v1/mandados?${qs}`, headers: acc.headers });

async function charged(acc: TestAccount): Promise<number[]> {
  const rows = await h.services.db
    .selectFrom('ledger')
    .select('delta_centavos')
    .where('account_id', '=', acc.accountId)
    .where('kind', '=', 'debit')
    .orderBy('created_at')
    .execute();
  return rows.map((r) => Math.abs(Number(r.delta_centavos)));
}

test('a CPF with warrants is CONSTA with their public fields, the instant and the notice; a CPF without is NADA_CONSTA; both charged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const res = await get(acc, `cpf=${formatCpf(comMandado)}`);
  assert.equal(res.statusCode, 200, res.body);
  const d = json(res).data;
  assert.equal(d.status, 'CONSTA');
  assert.equal(d.quantidade, d.mandados.length);
  assert.deepEqual(d.consulta, { tipo: 'CPF', valor: formatCpf(comMandado) });
  const expected = sandbox.warrants.byCpf(comMandado);
  assert.deepEqual(
    d.mandados.map((m: any) => m.numeroPeca.replace(/\D/g, '')),
    expected.map((w) => w.numeroPeca),
  );
  assert.match(d.mandados[0].numeroPeca, /^\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}\.\d{2}\.\d{4}-\d{2}$/);
  assert.deepEqual([d.mandados[0].status, d.mandados[0].tipoPeca.length > 0, d.fonte.sandbox], ['Pendente de Cumprimento', true, true]);
  assert.ok(Math.abs(Date.parse(d.consultadoEm) - h.services.clock.now().getTime()) < 60_000);
  assert.match(d.aviso, /não substitui certidão oficial/);

  const none = json(await get(acc, `cpf=${semMandado}`)).data;
  assert.deepEqual([none.status, none.quantidade, none.mandados], ['NADA_CONSTA', 0, []]);
  assert.deepEqual(await charged(acc), [PRICE, PRICE], 'an absence of warrants is a result, charged (rule 3)');
});

test('by piece number: an existing piece is CONSTA, a well-formed unknown one NADA_CONSTA', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const [w] = sandbox.warrants.byCpf(comMandado);
  const masked = parseNumeroPeca(w.numeroPeca).masked;
  const found = json(await get(acc, `numero_peca=${encodeURIComponent(masked)}`)).data;
  assert.deepEqual([found.status, found.consulta], ['CONSTA', { tipo: 'NUMERO_PECA', valor: masked }]);
  const unknown = `${w.numeroPeca.slice(0, 22)}9999${w.numeroPeca.slice(26)}`;
  assert.equal(json(await get(acc, `numero_peca=${unknown}`)).data.status, 'NADA_CONSTA');
});

test('every failure of the provider is an uncharged error, never NADA_CONSTA; a provider saying "nothing" for everyone is NADA_CONSTA, charged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  for (const [fault, status, code] of [
    [{ status: 503 }, 503, 'SOURCE_UNAVAILABLE'],
    [{ status: 403 }, 503, 'SOURCE_UNAVAILABLE'],
    [{ status: 429, retryAfterSeconds: 1 }, 503, 'SOURCE_UNAVAILABLE'],
    [{ hang: true }, 504, 'SOURCE_TIMEOUT'],
    [{ malformed: true }, 503, 'SOURCE_UNAVAILABLE'],
  ] as const) {
    sandbox.faults.set({ upstream: 'mandados', ...fault });
    try {
      for (const cpf of [comMandado, semMandado]) {
        const res = await get(acc, `cpf=${cpf}`);
        assert.equal(res.statusCode, status, `${JSON.stringify(fault)}: ${res.body}`);
        assert.deepEqual([json(res).error.code, json(res).error.details.source], [code, 'mandados']);
        assert.equal(json(res).data, undefined, 'no status at all, never NADA_CONSTA');
      }
    } finally {
      sandbox.faults.reset();
    }
  }
  assert.deepEqual(await charged(acc), []);
  sandbox.warrants.set({ empty: true });
  try {
    assert.equal(json(await get(acc, `cpf=${comMandado}`)).data.status, 'NADA_CONSTA');
  } finally {
    sandbox.warrants.reset();
  }
  assert.deepEqual(await charged(acc), [PRICE]);
});

test('bad input is a precise 400 before the provider is asked, never charged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  sandbox.resetStats();
  const base = comMandado.slice(0, 9);
  const wrongDigits = `${base}${String((Number(cpfCheckDigits(base)) + 1) % 100).padStart(2, '0')}`;
  const [w] = sandbox.warrants.byCpf(comMandado);
  const badCnjPart = `${w.numeroPeca.slice(0, 7)}${String((Number(w.numeroPeca.slice(7, 9)) + 1) % 100).padStart(2, '0')}${w.numeroPeca.slice(9)}`;
  for (const [qs, code, field] of [
    ['', 'MISSING_PARAMETER', 'cpf'],
    [`cpf=${comMandado}&numero_peca=${w.numeroPeca}`, 'INVALID_PARAMETER', 'numero_peca'],
    [`cpf=${wrongDigits}`, 'INVALID_CPF_CNPJ', 'cpf'],
    ['cpf=11.222.333/0001-81', 'INVALID_CPF_CNPJ', 'cpf'],
    [`numero_peca=${w.numeroPeca.slice(0, 27)}`, 'INVALID_NUMERO_PECA', 'numero_peca'],
    [`numero_peca=${badCnjPart}`, 'INVALID_NUMERO_PECA', 'numero_peca'],
    [`numero_peca=${w.numeroPeca.slice(0, 20)}00${w.numeroPeca.slice(22)}`, 'INVALID_NUMERO_PECA', 'numero_peca'],
  ] as const) {
    const res = await get(acc, qs);
    assert.equal(res.statusCode, 400, `${qs}: ${res.body}`);
    assert.deepEqual([json(res).error.code, json(res).error.details.field], [code, field], qs);
  }
  assert.equal(sandbox.stats().mandados.requests, 0);
  assert.deepEqual(await charged(acc), []);
});

test("a provider in Predictus's shape: 200 list and 204 none read right; by piece number it cannot search (422 QUERY_NOT_SUPPORTED, uncharged)", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const ours = h.sources.warrants;
  const predictus = new WarrantsConnector({
    baseUrl: `${sandbox.url}/mandados/predictus/predictus-api`,
    protocol: 'predictus',
    sandbox: true,
    perMinute: 100_000,
  });
  h.sources.warrants = predictus;
  try {
    const found = json(await get(acc, `cpf=${comMandado}`)).data;
    assert.equal(found.status, 'CONSTA');
    assert.deepEqual(
      found.mandados.map((m: any) => m.dataExpedicao),
      sandbox.warrants.byCpf(comMandado).map((w) => w.dataExpedicao),
      'DD/MM/YYYY read as a day',
    );
    assert.equal(json(await get(acc, `cpf=${semMandado}`)).data.status, 'NADA_CONSTA', '204 is a definitive none');
    const [w] = sandbox.warrants.byCpf(comMandado);
    const res = await get(acc, `numero_peca=${w.numeroPeca}`);
    assert.deepEqual([res.statusCode, json(res).error.code], [422, 'QUERY_NOT_SUPPORTED']);
    assert.deepEqual(await charged(acc), [PRICE, PRICE]);
  } finally {
    h.sources.warrants = ours;
    await predictus.close();
  }
});

test('without a provider: 503 SOURCE_NOT_CONFIGURED naming the setting, never NADA_CONSTA, never charged; /v1 says so', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const ours = h.sources.warrants;
  h.sources.warrants = null;
  try {
    const res = await get(acc, `cpf=${semMandado}`);
    assert.equal(res.statusCode, 503, res.body);
    assert.deepEqual([json(res).error.code, json(res).error.details.setting], ['SOURCE_NOT_CONFIGURED', 'TRAMITA_WARRANTS_PROVIDER_URL']);
    const fontes = json(await h.inject({ method: 'GET', url: '/v1' })).data.fontes;
    assert.equal(fontes.find((f: any) => f.nome === 'Mandados').configurada, false);
  } finally {
    h.sources.warrants = ours;
  }
  assert.deepEqual(await charged(acc), []);
});

test('no CPF, name or piece number reaches the logs, whatever the outcome', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  await get(acc, `cpf=${comMandado}`);
  // A cut answer still holds the start of the warrants (names, pieces): the failure must not quote it.
  for (const fault of [{ status: 503 as const }, { malformed: true }]) {
    sandbox.faults.set({ upstream: 'mandados', ...fault });
    try {
      await get(acc, `cpf=${comMandado}`);
    } finally {
      sandbox.faults.reset();
    }
  }
  const logs = h.logs.join('\n');
  const [w] = sandbox.warrants.byCpf(comMandado);
  for (const secret of [comMandado, formatCpf(comMandado), w.numeroPeca, w.nome]) assert.ok(!logs.includes(secret), `logged: ${secret}`);
});
