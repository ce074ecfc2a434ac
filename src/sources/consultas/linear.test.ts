/**
 * The page parsers' line readers stay linear on hostile lines (issue 44): a page is the court's, and one
 * line built to make a backtracking expression go quadratic (thousands of `(`, `) - `, ` - CPF:`, blanks,
 * `(OAB ` without its `)`) must cost in proportion to its length. Measured as a ratio between two sizes
 * in the same run (CPU time, the best of several rounds): 8× the input may cost at most ~3× the ideal 8×,
 * where a quadratic scan would cost 64×. No absolute duration is asserted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demojibake } from './html.ts';
import { parseEsajPage } from './esaj/parse.ts';
import { readMovement, readParticipant } from './pje/parse.ts';
import { subjectLeaf } from './subject.ts';

const SMALL = 200_000;
const FACTOR = 8;

/** CPU microseconds of `reps` runs, the best of 3 rounds. */
function cost(run: () => unknown, reps: number): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t = process.cpuUsage();
    for (let i = 0; i < reps; i++) run();
    const d = process.cpuUsage(t);
    best = Math.min(best, d.user + d.system);
  }
  return Math.max(best, 1);
}

function linear(name: string, make: (n: number) => string, read: (text: string) => unknown): void {
  const small = make(SMALL);
  const large = make(SMALL * FACTOR);
  // As many runs as make the small input cost 20 ms or more: the CPU clock's ticks then weigh nothing. Both sizes are past
  // V8's large-object threshold, so their allocations cost alike.
  let reps = 1;
  while (cost(() => read(small), reps) < 20_000 && reps < 4096) reps *= 2;
  const ratio = cost(() => read(large), reps) / cost(() => read(small), reps);
  assert.ok(ratio < FACTOR * 3, `${name}: ${FACTOR}× the input cost ${ratio.toFixed(1)}×`);
}

const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length));

test('participant lines: nested parentheses, repeated separators, a long name', () => {
  linear(
    'parentheses',
    (n) => `${rep('(', n)}AUTOR)`,
    (t) => readParticipant(t),
  );
  linear(
    'closing parentheses',
    (n) => `NOME ${rep(')', n)}`,
    (t) => readParticipant(t),
  );
  linear(
    'document separators',
    (n) => `${rep(' - CPF:', n)} (AUTOR)`,
    (t) => readParticipant(t),
  );
  linear(
    'OAB separators',
    (n) => `${rep(' - OAB ', n)}X (ADVOGADO)`,
    (t) => readParticipant(t),
  );
  linear(
    'social name',
    (n) => `${rep('registrado(a) ', n)} civilmente como X (AUTOR)`,
    (t) => readParticipant(t),
  );
});

test('movement lines, subject paths, mojibake', () => {
  linear(
    'movement',
    (n) => `01/01/2020 ${rep(' -', n)}`,
    (t) => readMovement(t),
  );
  linear('subject separators', (n) => rep(') - ', n), subjectLeaf);
  linear('subject codes', (n) => `${rep('(1) - ', n)}LEAF (2`, subjectLeaf);
  linear('mojibake', (n) => rep('Ã§', n), demojibake);
});

test("e-SAJ: a movement text of `(OAB ` without its `)`, read for the lawyers' registrations", () => {
  const page = (n: number) =>
    `<html><body><span id="numeroProcesso">1000149-71.2024.8.26.0346</span><span id="classeProcesso">X</span>
<table id="tablePartesPrincipais"><tr><td><span class="tipoDeParticipacao">Reqte</span></td><td class="nomeParteEAdvogado">A
<span class="mensagemExibindo">Advogado:</span> B</td></tr></table>
<tbody id="tabelaTodasMovimentacoes"><tr class="containerMovimentacao"><td class="dataMovimentacao">01/01/2020</td>
<td class="descricaoMovimentacao">T<br/><span style="font-style: italic;">${rep('B (OAB 1', n)}</span></td></tr></tbody></body></html>`;
  linear('OAB in texts', page, (html) => parseEsajPage(html, { numeroCnj: '10001497120248260346', tribunal: 'TJSP', grau: 1 }));
});
