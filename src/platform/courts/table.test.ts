/** Unit tests for the courts reference data (courts.csv → COURTS, SYSTEMS, lookups). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { COURTS, SYSTEMS, courtByJTr, courtBySigla } from './table.ts';

const count = (segmento: string) => COURTS.filter((c) => c.segmento === segmento).length;

test('courts.csv is a verbatim copy of the reference file', () => {
  const ours = readFileSync(new URL('./courts.csv', import.meta.url));
  const reference = new URL('../../../../shared/reference/upstream/courts.csv', import.meta.url);
  let upstream: Buffer;
  try {
    upstream = readFileSync(reference);
  } catch {
    return; // reference tree not present (e.g. in a packaged build): nothing to compare
  }
  assert.ok(ours.equals(upstream));
});

test('92 courts: 5 superior + 6 TRF + 27 TJ + 24 TRT + 27 TRE + 3 TJM', () => {
  assert.equal(COURTS.length, 92);
  assert.equal(count('Superior'), 5);
  assert.equal(count('Federal'), 6);
  assert.equal(count('Estadual'), 27);
  assert.equal(count('Trabalho'), 24);
  assert.equal(count('Eleitoral'), 27);
  assert.equal(count('Militar Estadual'), 3);
  assert.deepEqual(
    COURTS.filter((c) => c.segmento === 'Superior').map((c) => c.sigla),
    ['STF', 'STJ', 'TST', 'TSE', 'STM'],
  );
  assert.equal(new Set(COURTS.map((c) => c.sigla)).size, 92);
});

test('every court except STF has a DataJud alias', () => {
  for (const c of COURTS) {
    if (c.sigla === 'STF') assert.equal(c.datajudAlias, null);
    else assert.match(c.datajudAlias ?? '', /^api_publica_[a-z0-9-]+$/, c.sigla);
  }
  assert.equal(courtBySigla('TRE-DF')?.datajudAlias, 'api_publica_tre-dft');
  assert.equal(courtBySigla('TJDFT')?.datajudAlias, 'api_publica_tjdft');
});

test('fields are parsed: ufs, j/tr, systems', () => {
  const trf1 = courtBySigla('TRF1');
  assert.ok(trf1);
  assert.equal(trf1.nome, 'Tribunal Regional Federal da 1ª Região');
  assert.equal(trf1.ufs.length, 13);
  assert.ok(!trf1.ufs.includes('MG'), 'MG moved to TRF6 in 2022');
  assert.deepEqual(courtBySigla('STF')?.ufs, ['BR']);
  assert.deepEqual(courtBySigla('TRT8')?.ufs, ['AP', 'PA']);
  const tjba = courtBySigla('TJBA');
  assert.deepEqual(tjba?.sistemas, ['PJe', 'legado e-SAJ/Projudi']);
  assert.equal(tjba?.sistemaAtual, 'PJe');
  assert.deepEqual(tjba?.sistemasLegados, ['e-SAJ', 'Projudi']);
  assert.deepEqual(courtBySigla('TRF5')?.sistemasLegados, ['Creta']);
  assert.deepEqual(courtBySigla('TJRJ')?.sistemasLegados, ['PJe', 'DCP']);
  const tjsp = courtBySigla('TJSP');
  assert.equal(tjsp?.sistemaAtual, 'e-SAJ');
  assert.deepEqual(tjsp?.sistemasAdicionais, ['eproc']); // "eproc (migração 2025-26)" is not legacy
  assert.deepEqual(tjsp?.sistemasLegados, []);
  assert.equal(courtBySigla('STM')?.sistemaAtual, 'eproc');
  assert.equal(courtBySigla('TJGO')?.sistemaAtual, 'Projudi');
  for (const c of COURTS) {
    assert.match(c.j, /^\d$/);
    assert.match(c.tr, /^\d{2}$/);
    assert.ok(c.sistemaAtual.length > 0 && !/legado/i.test(c.sistemaAtual), c.sigla);
  }
});

test('courtBySigla is case-insensitive and returns undefined for unknown siglas', () => {
  assert.equal(courtBySigla('tjsp')?.sigla, 'TJSP');
  assert.equal(courtBySigla(' tre-sp ')?.sigla, 'TRE-SP');
  assert.equal(courtBySigla('CNJ'), undefined);
  assert.equal(courtBySigla('TJXX'), undefined);
});

test('courtByJTr: a sample of each family', () => {
  const sample: [string, string, string][] = [
    ['1', '00', 'STF'],
    ['3', '00', 'STJ'],
    ['5', '00', 'TST'],
    ['6', '00', 'TSE'],
    ['7', '00', 'STM'],
    ['4', '01', 'TRF1'],
    ['4', '06', 'TRF6'],
    ['8', '01', 'TJAC'],
    ['8', '07', 'TJDFT'],
    ['8', '26', 'TJSP'],
    ['8', '27', 'TJTO'],
    ['5', '02', 'TRT2'],
    ['5', '24', 'TRT24'],
    ['6', '07', 'TRE-DF'],
    ['6', '26', 'TRE-SP'],
    ['9', '13', 'TJMMG'],
    ['9', '21', 'TJMRS'],
    ['9', '26', 'TJMSP'],
  ];
  for (const [j, tr, sigla] of sample) assert.equal(courtByJTr(j, tr)?.sigla, sigla, `${j}.${tr}`);
  for (const [j, tr] of [
    ['2', '00'],
    ['4', '90'],
    ['5', '90'],
    ['9', '01'],
    ['8', '00'],
    ['7', '01'],
  ]) {
    assert.equal(courtByJTr(j, tr), undefined, `${j}.${tr}`);
  }
});

test('SYSTEMS: deduplicated, with plausible courts per system', () => {
  const byName = new Map(SYSTEMS.map((s) => [s.nome, s]));
  assert.equal(byName.size, SYSTEMS.length);
  const pje = byName.get('PJe');
  const eproc = byName.get('eproc');
  const esaj = byName.get('e-SAJ');
  assert.ok(pje && eproc && esaj);
  for (const s of ['TRF1', 'TRF3', 'TRF5', 'TJDFT', 'TSE', 'TRE-SP']) assert.ok(pje.atual.includes(s), s);
  for (const s of ['TRF6', 'TJRJ', 'TJMMG']) assert.ok(pje.legado.includes(s), s);
  for (const s of ['TRF2', 'TRF4', 'TRF6', 'TJRS', 'TJSC', 'TJTO', 'TJRJ', 'STM', 'TJMSP']) assert.ok(eproc.atual.includes(s), s);
  assert.deepEqual(eproc.adicional, ['TJSP']);
  assert.deepEqual(esaj.atual, ['TJAC', 'TJAL', 'TJAM', 'TJMS', 'TJSP']);
  assert.deepEqual(esaj.legado, ['TJBA', 'TJCE', 'TJSC']);
  assert.equal(byName.get('PJe-JT')?.atual.length, 25); // TST + 24 TRTs
  assert.ok(byName.get('SADP')?.legado.includes('TRE-RJ'));
  assert.deepEqual(byName.get('Projudi'), { nome: 'Projudi', atual: ['TJGO', 'TJPR', 'TJRR'], adicional: ['TJAM'], legado: ['TJBA'] });
  // no "legado" word, parenthetical note, or empty name survives normalization
  for (const s of SYSTEMS) assert.ok(s.nome && !/legado|\(|\)/i.test(s.nome), s.nome);
  // every court appears exactly once as "atual"
  assert.equal(
    SYSTEMS.reduce((n, s) => n + s.atual.length, 0),
    92,
  );
});

test('the reference data is frozen', () => {
  assert.ok(Object.isFrozen(COURTS) && Object.isFrozen(COURTS[0]) && Object.isFrozen(COURTS[0].ufs));
  assert.ok(Object.isFrozen(SYSTEMS) && Object.isFrozen(SYSTEMS[0].atual));
});
