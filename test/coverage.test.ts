/**
 * The coverage map (issue 32): `GET /v1/integrador` says per court where each field comes from and which
 * searches reach it, from the same function as docs/coverage.md (whose drift operations.test.ts
 * catches), and it follows the configuration: the consultations' court tables, the systems' offers,
 * DataJud's aliases, DJEN, the provider's courts and which consultations this deployment enabled.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { consultaState } from '../src/platform/observability/consultas.ts';
import { createHarness, json } from './harness.ts';
import { COURTS } from '../src/platform/courts/table.ts';
import { CONSULTA_COURTS } from '../src/sources/consultas/courts.ts';
import { CLOSED_COURTS } from '../src/sources/consultas/closed-courts.ts';
import { consultaLabel, SYSTEM_OFFERS } from '../src/sources/consultas/systems.ts';
import { courtCoverage, deploymentCoverage } from '../src/sources/coverage.ts';

const h = await createHarness({ env: { TRAMITA_CONSULTAS: 'TJSP,TJMA', TRAMITA_PORTAL_TRIBUNAIS: 'TJBA,TJSP', TRAMITA_PORTAL_NOME: 'Provedor Ficticio' } });
after(() => h.close());
const acc = await h.createAccount({ credits: 0 });
const items = json(await h.inject({ method: 'GET', url: '/v1/integrador', headers: acc.headers })).data.items as { sigla: string; origens: any }[];
const origens = (sigla: string) => items.find((i) => i.sigla === sigla)!.origens;

test("every court's origens are the coverage function's answer for this deployment", () => {
  assert.equal(items.length, COURTS.length);
  const cfg = deploymentCoverage(h.sources);
  for (const court of COURTS) {
    // Beside the configuration's answer, `estado`: this process's view of the court's consultation (null: never asked here),
    // and `saude`: the health of the court's sources (issue 51), all healthy here.
    const { estado, saude, ...coverage } = origens(court.sigla);
    assert.deepEqual(coverage, courtCoverage(court, cfg), court.sigla);
    assert.deepEqual(estado, consultaState(court.sigla), court.sigla);
    assert.ok(
      Object.values(saude).every((v) => v === 'saudavel'),
      court.sigla,
    );
    assert.equal(saude.djen, 'saudavel', court.sigla);
  }
});

test("the map follows the configuration: open and closed courts, enabled consultations, the provider's courts, DataJud, DJEN", () => {
  for (const court of CONSULTA_COURTS) {
    const o = origens(court.sigla);
    assert.equal(o.consulta, 'aberta', court.sigla);
    const enabled = ['TJSP', 'TJMA'].includes(court.sigla);
    assert.equal(o.consultaHabilitada, enabled, court.sigla);
    assert.equal(o.campos.partes.includes(consultaLabel(court)), enabled, court.sigla);
    assert.equal(o.campos.valor.includes(consultaLabel(court)), enabled && SYSTEM_OFFERS[court.sistema].valor, court.sigla);
    for (const b of o.buscas)
      assert.equal(b.fontes.includes(consultaLabel(court)), enabled && SYSTEM_OFFERS[court.sistema].buscas.includes(b.tipo), `${court.sigla} ${b.tipo}`);
  }
  for (const closed of CLOSED_COURTS) assert.equal(origens(closed.sigla).consulta, closed.motivo, closed.sigla);
  assert.deepEqual(origens('TJBA').campos.partes, ['Provedor Ficticio', 'DJEN'], 'the provider first for its courts, DJEN after');
  assert.deepEqual(origens('TJSP').campos.partes, ['Provedor Ficticio', 'e-SAJ TJSP', 'DJEN']);
  assert.deepEqual(origens('TJPR').campos.partes, ['DJEN'], "a closed court outside the provider's: DJEN alone");
  assert.deepEqual(origens('TJPR').campos.valor, []);
  assert.deepEqual(origens('TJMA').campos.valor, [], 'PJe prints no value');
  for (const court of COURTS) if (court.datajudAlias) assert.equal(origens(court.sigla).campos.capa[0], 'DataJud', court.sigla);
  assert.deepEqual(origens('STF').campos.capa, [], 'no DataJud index, no consultation: nothing is claimed');
  assert.deepEqual(origens('TJBA').buscas.find((b: { tipo: string }) => b.tipo === 'oab').fontes, ['armazenado', 'DJEN']);
});
