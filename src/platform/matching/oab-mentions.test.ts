import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseOab, parseOabParts } from '../identifiers/oab.ts';
import { extractCnjMentions, extractOabMentions, oabKeyCanonical, oabKeyOfParts } from './index.ts';

// The real DJEN sample as the connector's fixtures keep it (a copy of reference/upstream/djen-comunicacao-sample.json).
const SAMPLE = path.resolve(import.meta.dirname, '../../sources/djen/fixtures/djen-comunicacao-sample.json');

test('OAB mentions: every spelling courts print, canonical as parseOab gives it', () => {
  const spellings = [
    'OAB RS062492',
    'OAB/RS 62.492',
    'OAB/SP nº 123.456',
    'OAB/SP n. 123.456',
    'OAB/SP Nº123456',
    'OAB-SP 123456-A',
    'OAB: SP 123456',
    'OAB SP123456A',
    '(OAB RS900000)',
    'OAB/RJ-123456',
    'OAB 62.492/RS',
    'OAB 123456-A/SP',
    'OAB nº 62492 RS',
    'RS062492',
    'SP123456A',
    '123456SP',
    'SP123456-A',
  ];
  for (const s of spellings) {
    const bare = s
      .replace(/^\(|\)$/g, '')
      .replace(/^OAB nº /, '')
      .replace(/^OAB /, '');
    assert.deepEqual(extractOabMentions(`Advogada: Fulana de Teste ${s}, intimada.`), [parseOab(bare).canonical], s);
  }
});

test('OAB mentions: keyword-less separated spellings next to a lawyer word', () => {
  const cases: [string, string][] = [
    ['ADVOGADO: FULANO DE TESTE SILVA (62492/RS)', 'RS62492'],
    ['Adv. Fulano de Teste - 62.492-RS', 'RS62492'],
    ['advogada Beltrana RS-62492', 'RS62492'],
    ['Advogados: A - 123456-A/SP', 'SP123456A'],
    ['Advogado: B - 123.456A/SP', 'SP123456A'],
    ['Dra. Fulana 62492 / RS', 'RS62492'],
  ];
  for (const [text, key] of cases) {
    assert.deepEqual(extractOabMentions(text), [key], text);
    assert.equal(parseOab(key).canonical, key);
  }
  // A list of lawyers: each mention is the context of the next one.
  assert.deepEqual(
    extractOabMentions('ADV: FULANO DE TESTE SOUZA SILVA BACELO (123456/SP), BELTRANO DE TESTE LIMA COSTA MIRA (654321/SP), CICLANO DE TESTE ROCHA (11111/SP)'),
    ['SP123456', 'SP654321', 'SP11111'],
  );
});

test('OAB mentions: the real DJEN sample (eproc header "ADVOGADA EXEMPLO UM (OAB RS900000)")', () => {
  const sample = JSON.parse(fs.readFileSync(SAMPLE, 'utf8')) as { items: { texto: string; numero_processo: string }[] };
  const [eproc, tjrs] = sample.items;
  assert.deepEqual(extractOabMentions(eproc.texto), ['RS900000']);
  assert.deepEqual(extractOabMentions(tjrs.texto), []);
  // Its CNJ number is printed masked ("5004073-05.2025.4.04.7113/RS") and bare ("50040730520254047113/RS").
  assert.deepEqual(extractCnjMentions(eproc.texto), [eproc.numero_processo]);
});

test('OAB mentions: no false positives on case numbers, dates, citations, highways and prose', () => {
  const texts = [
    'APELAÇÃO CÍVEL Nº 5004073-05.2025.4.04.7113/RS (originário: processo nº 50040730520254047113/RS)',
    'Evento 66 - 15/09/2026 - Recurso extraordinário não admitido',
    'Porto Alegre/RS, 15/09/2026. Lei nº 13.105/2015, art. 1.015.',
    'STJ, REsp 1.657.156/RJ e HC 123.456/SP; AgRg no AREsp nº 1.234.567/MG.',
    'O acidente ocorreu na rodovia SP-348, km 120, e na RS-040.',
    'Advogado: Fulano. O acidente ocorreu na rodovia SC-401.',
    'Se 10 dias se passarem, PA 2020, TO 12345 e AM 1234 são prosa.',
    'Processo 12345 SE e 2025-SP-10',
    'CEP 90000-000, Brasília/DF, 70000-000',
    'R$ 1.234,56 em 10/2025; protocolo SP20250012345; nota 5.4/SP',
    'OAB/RS',
    'OAB',
    'OAB/XX 1234',
    'OAB/RS 0',
    'OAB/RS 12345678',
    'advogado 15/09/2026/RS',
    'advogado 2025.4.04.7113/RS',
  ];
  for (const t of texts) assert.deepEqual(extractOabMentions(t), [], t);
});

test('OAB mentions: a letter after a space is prose, not a suffix', () => {
  assert.deepEqual(extractOabMentions('OAB/RS 12345 e OAB/SC 678'), ['RS12345', 'SC678']);
  assert.deepEqual(extractOabMentions('OAB/RS 12345 a parte'), ['RS12345']);
});

test('OAB mentions: each key once, in order of first appearance', () => {
  assert.deepEqual(extractOabMentions('OAB RS062492, (OAB/RS 62.492), OAB/SP 1.234, RS062492'), ['RS62492', 'SP1234']);
});

test('oabKeyOfParts: the structured form, as parseOabParts reads it', () => {
  const cases: [string, string][] = [
    ['RS', '62492'],
    ['rs', '062492'],
    ['SP', '123456A'],
    ['SP', '123456-a'],
    ['DF', '1.234'],
    ['AC', '7'],
  ];
  for (const [uf, numero] of cases) assert.equal(oabKeyCanonical(oabKeyOfParts(uf, numero)), parseOabParts(uf, numero).canonical, `${uf} ${numero}`);
  for (const [uf, numero] of [
    ['XX', '1'],
    ['RS', '0'],
    ['RS', '12345678'],
    ['RS', 'abc'],
    ['RS', '12AB'],
    ['R', '1'],
  ]) {
    assert.equal(oabKeyOfParts(uf, numero), -1, `${uf} ${numero}`);
  }
});

test('CNJ mentions: masked or 20 bare digits, nothing else', () => {
  assert.deepEqual(extractCnjMentions('Autos 5004073-05.2025.4.04.7113 e 00000012020268260100.'), ['50040730520254047113', '00000012020268260100']);
  assert.deepEqual(extractCnjMentions('5004073-05.2025.4.04 e 500407305202540471130 e 5004073 05 2025 4 04 7113 e 5004073-05.2025.4.04.71131'), []);
  assert.deepEqual(extractCnjMentions('<b>5004073-05.2025.4.04.7113</b>'), ['50040730520254047113']);
});
