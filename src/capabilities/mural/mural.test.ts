/**
 * The electoral bulletin board through HTTP (issue 16): searched and downloaded through the sandbox's
 * provider (docs/providers.md), never through the board's reCAPTCHA-gated back end (its request
 * counter stays at zero); without a provider, 503 SOURCE_NOT_CONFIGURED and nothing charged, and
 * GET /v1 and /v1/integrador say so; the provider's failures are uncharged documented errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { boardItem } from './testing.ts';

const h = await createHarness({
  env: { DJEN_TIMEOUT_MS: '300', TRAMITA_DEV_TIME_SCALE: '1000', TRAMITA_RATE_LIMITS: 'search=100000/60s,download=100000/60s,reference=100000/60s' },
});
test.after(() => h.close());
const sandbox = h.sources.sandbox!;
const PATH = '/v1/mural-eleitoral/publicacoes';
const get = (acc: TestAccount, url: string) => h.inject({ method: 'GET', url, headers: acc.headers });

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

test("a party's postings through the provider (charged once), the act and its certificate as PDFs; the board's own search is never called", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  sandbox.resetStats();
  const item = boardItem(h);
  const res = await get(acc, `${PATH}?parte=${encodeURIComponent(item.parte.toLowerCase())}&tribunal=${item.tribunal.toLowerCase()}`);
  assert.equal(res.statusCode, 200, res.body);
  const data = json(res).data;
  const hit = data.items.find((i: any) => i.id === item.id);
  assert.ok(hit, 'the posting of that party');
  assert.ok(data.items.every((i: any) => i.tribunal === item.tribunal));
  assert.match(hit.numeroProcesso, /^\d{7}-\d{2}\.\d{4}\.6\.\d{2}\.\d{4}$/);
  assert.deepEqual([hit.fonte, hit.sandbox], ['Mural eleitoral', true]);
  assert.deepEqual(await charged(acc), [5]);

  for (const kind of ['documento', 'certidao']) {
    const file = await get(acc, `${PATH}/${encodeURIComponent(item.id)}/${kind}`);
    assert.equal(file.statusCode, 200, file.body);
    assert.equal(file.headers['content-type'], 'application/pdf');
    assert.equal(file.rawPayload.subarray(0, 5).toString(), '%PDF-');
  }
  assert.deepEqual(await charged(acc), [5, 5, 5]);
  const stats = sandbox.stats();
  assert.equal(stats.mural.requests, 0, 'the reCAPTCHA-gated back end is never reached');
  assert.equal(stats.provedor.requests, 3);
});

test('bad input is a precise 4xx before the provider is asked; an unknown posting is 404; none of it is charged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  sandbox.resetStats();
  const cases: [string, number, string][] = [
    [`${PATH}?tribunal=TSE`, 400, 'MISSING_PARAMETER'],
    [`${PATH}?parte=Fulano&tribunal=TRE-ZZ`, 400, 'INVALID_ELECTORAL_COURT'],
    [`${PATH}?parte=Fulano&data_inicio=2026-02-31`, 400, 'INVALID_DATE'],
    [`${PATH}?parte=Fulano&data_inicio=2026-01-01&data_fim=2026-06-01`, 422, 'PERIOD_TOO_LONG'],
    [`${PATH}?oab=123`, 400, 'INVALID_OAB'],
    [`${PATH}/TSE-20260101-001/sentenca`, 400, 'INVALID_PARAMETER'],
  ];
  for (const [url, status, code] of cases) {
    const res = await get(acc, url);
    assert.equal(res.statusCode, status, `${url}: ${res.body}`);
    assert.equal(json(res).error.code, code, url);
  }
  assert.deepEqual(json(await get(acc, `${PATH}/x/sentenca`)).error.details.allowedValues, ['documento', 'certidao']);
  assert.equal(sandbox.stats().provedor.requests, 0);
  const unknown = await get(acc, `${PATH}/TSE-19990101-999/documento`);
  assert.equal(json(unknown).error.code, 'PUBLICATION_NOT_FOUND');
  assert.deepEqual(await charged(acc), []);
});

test('the provider failing, hanging or refusing the token is an uncharged documented error; out of the electoral period an empty page is free', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const url = `${PATH}?parte=${encodeURIComponent(boardItem(h).parte)}`;
  for (const [fault, status, code] of [
    [{ status: 503 }, 503, 'SOURCE_UNAVAILABLE'],
    [{ status: 403 }, 503, 'SOURCE_UNAVAILABLE'],
    [{ hang: true }, 504, 'SOURCE_TIMEOUT'],
    [{ malformed: true }, 503, 'SOURCE_UNAVAILABLE'],
  ] as const) {
    sandbox.faults.set({ upstream: 'provedor', ...fault });
    try {
      const res = await get(acc, url);
      assert.equal(res.statusCode, status, res.body);
      assert.deepEqual([json(res).error.code, json(res).error.details.source], [code, 'mural']);
    } finally {
      sandbox.faults.reset();
    }
  }
  sandbox.mural.outOfPeriod = true;
  try {
    const res = await get(acc, url);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res).data.items, []);
  } finally {
    sandbox.mural.outOfPeriod = false;
  }
  assert.deepEqual(await charged(acc), []);
});

test(
  'without a provider: 503 SOURCE_NOT_CONFIGURED naming the setting, never charged; ' + 'GET /v1 and /v1/integrador say the mural is not configured',
  async () => {
    const acc = await h.createAccount({ credits: 1000 });
    const provider = h.sources.mural;
    h.sources.mural = null;
    try {
      for (const url of [`${PATH}?parte=Fulano`, `${PATH}/TSE-20260101-001/documento`]) {
        const res = await get(acc, url);
        assert.equal(res.statusCode, 503, res.body);
        assert.deepEqual([json(res).error.code, json(res).error.details.setting], ['SOURCE_NOT_CONFIGURED', 'TRAMITA_MURAL_PROVIDER_URL']);
        assert.match(json(res).error.message, /provedor/);
      }
      const catalog = json(await h.inject({ method: 'GET', url: '/v1' })).data.fontes;
      assert.deepEqual(
        catalog.find((f: any) => f.nome === 'Mural eleitoral'),
        {
          nome: 'Mural eleitoral',
          serve: 'mural eletrônico do TSE e dos TREs',
          configurada: false,
          sandbox: false,
          provedor: true,
          estado: 'nao_configurada',
          saude: 'saudavel',
          ultimaFalha: null,
        },
      );
      const integrador = json(await get(acc, '/v1/integrador')).data.fontes;
      assert.equal(integrador.find((f: any) => f.nome === 'STF').configurada, true);
      assert.equal(integrador.find((f: any) => f.nome === 'Mural eleitoral').configurada, false);
    } finally {
      h.sources.mural = provider;
    }
    assert.deepEqual(await charged(acc), []);
  },
);
