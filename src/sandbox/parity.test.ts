/** The structural comparator every simulator's parity test uses: keys and their order, types, date and number spellings, nesting, both ways. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kindOf, shapeOf, structuralDifferences } from './parity.ts';

test('kinds: JSON types, with the spelling of dates, numbers and markup', () => {
  const cases: [unknown, string][] = [
    [null, 'null'],
    [true, 'boolean'],
    [3, 'integer'],
    [3.5, 'decimal'],
    [[], 'array'],
    [{}, 'object'],
    ['', 'string:empty'],
    ['2026-08-14', 'string:iso-date'],
    ['2026-08-13T20:32:00.645', 'string:iso-local-datetime'],
    ['2026-08-13T20:30:03', 'string:iso-local-datetime'],
    ['2026-08-13T20:32:00.645-03:00', 'string:iso-zoned-datetime'],
    ['2026-08-13T23:32:00Z', 'string:iso-zoned-datetime'],
    ['14/08/2026', 'string:br-date'],
    ['13/08/2026 20:32:00', 'string:br-datetime'],
    ['<!--?xml …', 'string:html'],
    ['Pet 16560', 'string:text'],
  ];
  for (const [v, kind] of cases) assert.equal(kindOf(v), kind, JSON.stringify(v));
});

test('the same structure with other values has no difference; arrays are described by all their elements', () => {
  const capture = {
    items: [
      { id: 1, at: '2026-08-13T20:32:00.645', tags: [] },
      { id: 2, at: '2026-08-13T20:30:03', tags: ['a'] },
    ],
    total: 2,
  };
  const simulated = { items: [{ id: 9, at: '2026-03-09T10:00:00.1', tags: ['x', 'y'] }], total: 0 };
  assert.deepEqual(structuralDifferences(capture, simulated), []);
  assert.deepEqual(structuralDifferences(shapeOf(capture, { items: [], total: 0 }), simulated), [], 'several captures merge into one shape');
});

test('every kind of drift is named with its path: a date spelling, a type, key order, a missing or extra key, a kind never sent', () => {
  const capture = {
    publicacoes: [{ id: 1, divulgacao: '2026-08-13T20:32:00.645', publicacao: '2026-08-14', envolvidos: [{ nome: 'A', oabs: ['OAB 1/SP'] }] }],
    agregacoes: [{ nome: 'Relator' }],
  };
  const simulated = {
    agregacoes: {},
    publicacoes: [{ id: '1', publicacao: '14/08/2026', divulgacao: '13/08/2026', envolvidos: [{ nome: 'A', oabs: [] }], extra: true }],
  };
  assert.deepEqual(structuralDifferences(capture, simulated).sort(), [
    '(root): keys [agregacoes,publicacoes], the capture [publicacoes,agregacoes]',
    'agregacoes: the capture has array, the simulator never sends it',
    'agregacoes: the simulator sends object, the capture array',
    'agregacoes[].nome: the capture has string:text, the simulator never sends it',
    'agregacoes[]: the capture has object, the simulator never sends it',
    'publicacoes[].divulgacao: the capture has string:iso-local-datetime, the simulator never sends it',
    'publicacoes[].divulgacao: the simulator sends string:br-date, the capture string:iso-local-datetime',
    'publicacoes[].envolvidos[].oabs[]: the capture has string:text, the simulator never sends it',
    'publicacoes[].extra: the simulator sends it, the capture has no such path',
    'publicacoes[].id: the capture has integer, the simulator never sends it',
    'publicacoes[].id: the simulator sends string:text, the capture integer',
    'publicacoes[].publicacao: the capture has string:iso-date, the simulator never sends it',
    'publicacoes[].publicacao: the simulator sends string:br-date, the capture string:iso-date',
    'publicacoes[]: keys [id,publicacao,divulgacao,envolvidos,extra], the capture [id,divulgacao,publicacao,envolvidos]',
  ]);
});

test('options: kinds the real API sends but the capture does not show are allowed by name; kinds the simulator need not send are named too', () => {
  const capture = { publicacao: '2026-08-14', colegiado: null };
  assert.deepEqual(structuralDifferences(capture, { publicacao: null, colegiado: 'Plenário' }), [
    'publicacao: the simulator sends null, the capture string:iso-date',
    'colegiado: the simulator sends string:text, the capture null',
    'publicacao: the capture has string:iso-date, the simulator never sends it',
    'colegiado: the capture has null, the simulator never sends it',
  ]);
  assert.deepEqual(
    structuralDifferences(
      capture,
      { publicacao: null, colegiado: 'Plenário' },
      {
        alsoAllowed: { publicacao: ['null'], colegiado: ['string:text'] },
        notRequired: ['publicacao', 'colegiado'],
      },
    ),
    [],
  );
});
