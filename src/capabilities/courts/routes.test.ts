/** /v1/integrador, /v1/sistemas and its historical path /v1/tribunais/sistemas (spec §4.7, §4.9). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json } from '../../../test/harness.ts';

test('the courts listing has the 92 courts with J.TR, UFs, systems, DataJud alias and coverage, free of charge', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 0 });
  const res = await h.inject({ method: 'GET', url: '/v1/integrador', headers: a.headers });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.equal(body.data.items.length, 92);
  assert.equal(body.data.total, 92);
  assert.equal(body.meta.total, 92);
  assert.equal(body.meta.creditsCharged, undefined);
  const tjsp = body.data.items.find((c: any) => c.sigla === 'TJSP');
  assert.equal(tjsp.codigoJTr, '8.26');
  assert.equal(tjsp.datajudAlias, 'api_publica_tjsp');
  assert.deepEqual(tjsp.ufs, ['SP']);
  assert.equal(typeof tjsp.sistemas.atual, 'string');
  assert.deepEqual(tjsp.cobertura.fontes.slice(0, 1), ['DataJud'], 'DataJud first: it is asked first for the cover');
  const stf = body.data.items.find((c: any) => c.sigla === 'STF');
  assert.equal(stf.datajudAlias, null);
  assert.deepEqual(stf.cobertura, { fontes: [], recursos: [] }, 'no DataJud index and no consultation: no coverage is claimed');
});

test("each court's cobertura summarises its origens for this deployment's configuration", async (t) => {
  // A deployment whose TJSP consultation is on: its fields, and so its summary, name the consultation and DJEN.
  const h = await createHarness({ env: { TRAMITA_CONSULTAS: 'TJSP' } });
  t.after(() => h.close());
  const a = await h.createAccount();
  const items = json(await h.inject({ method: 'GET', url: '/v1/integrador', headers: a.headers })).data.items;
  for (const c of items) {
    const given = Object.entries(c.origens.campos as Record<string, string[]>).filter(([, names]) => names.length > 0);
    assert.deepEqual(
      c.cobertura.recursos,
      given.map(([field]) => field),
      `${c.sigla}: the fields some source gives`,
    );
    assert.deepEqual(new Set(c.cobertura.fontes), new Set(given.flatMap(([, names]) => names)), `${c.sigla}: every source named in origens`);
  }
  const tjsp = items.find((c: any) => c.sigla === 'TJSP');
  assert.equal(tjsp.origens.consultaHabilitada, true);
  assert.ok(tjsp.cobertura.fontes.includes(tjsp.origens.campos.textosMovimentos[0]), 'the enabled consultation is a source');
  assert.ok(tjsp.cobertura.recursos.includes('textosMovimentos'));
  const tjrj = items.find((c: any) => c.sigla === 'TJRJ');
  assert.ok(!tjrj.cobertura.recursos.includes('textosMovimentos'), 'a consultation this deployment does not read gives nothing');
});

test('the courts listing filters by segment and UF, and rejects an unknown segment', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount();
  const trabalho = json(await h.inject({ method: 'GET', url: '/v1/integrador?segmento=Trabalho', headers: a.headers })).data.items;
  assert.equal(trabalho.length, 24);
  const sp = json(await h.inject({ method: 'GET', url: '/v1/integrador?uf=sp', headers: a.headers })).data.items.map((c: any) => c.sigla);
  for (const sigla of ['TJSP', 'TRT2', 'TRT15', 'TRF3', 'TRE-SP', 'TJMSP', 'STF', 'STJ']) assert.ok(sp.includes(sigla), sigla);
  assert.ok(!sp.includes('TJRJ'));
  const bad = await h.inject({ method: 'GET', url: '/v1/integrador?segmento=Lunar', headers: a.headers });
  assert.equal(bad.statusCode, 400);
  assert.equal(json(bad).error.details.field, 'segmento');
});

test('/v1/tribunais/sistemas answers exactly what /v1/sistemas answers', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount();
  const main = json(await h.inject({ method: 'GET', url: '/v1/sistemas', headers: a.headers }));
  const legacy = json(await h.inject({ method: 'GET', url: '/v1/tribunais/sistemas', headers: a.headers }));
  assert.deepEqual(legacy.data, main.data);
  const pje = main.data.items.find((s: any) => s.nome === 'PJe');
  assert.ok(pje.tribunais.atual.includes('TRF1'));
  assert.ok(main.data.items.some((s: any) => s.nome === 'eproc'));
});
