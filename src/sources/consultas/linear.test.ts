/**
 * The page parsers' line readers stay linear on hostile lines (issue 44): a page is the court's, and one
 * line built to make a backtracking expression go quadratic (thousands of `(`, `) - `, ` - CPF:`, blanks,
 * `(OAB ` without its `)`) must cost in proportion to its length. Measured by the one linear-time check
 * (assertLinearTime: times at several sizes in the same run, their growth exponent under 1.5); no
 * absolute duration is asserted.
 */
import { test } from 'node:test';
import { assertLinearTime } from '../../platform/testing/linear-time.ts';
import { demojibake } from './html.ts';
import { parseEsajPage } from './esaj/parse.ts';
import { readMovement, readParticipant } from './pje/parse.ts';
import { subjectLeaf } from './subject.ts';
import { readLabel } from './pje/documents.ts';
import { parsePjeViewer } from './pje/viewer.ts';

/** A line reader checked by the one linear-time check (platform/testing/linear-time.ts): time ∝ nᵏ with k under 1.5. */
const linear = (name: string, make: (n: number) => string, read: (text: string) => unknown) => assertLinearTime(name, read, make);

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

test('PJe documents (issue 53): grid labels of nested parentheses, a viewer of unclosed comments, scripts and signature blocks', () => {
  linear('document label', (n) => `17/12/2020 11:58:39 - ${rep('(', n)}Sentença)`, readLabel);
  linear('document label closing', (n) => `ID: 1 - 2024-07-03 13:44:34.33 - X ${rep(')', n)}`, readLabel);
  const viewer = (body: string) =>
    `<html><body class="scroll-y"><div class="container-fluid content impresso"><div class="folha">${body}<table width="100%"><tr><td>` +
    '<img src="/pje/img/imgSign.png"></td><td><small>Assinado eletronicamente por: <b>X<br>01/01/2020 10:00:00<br></b> ID do documento: <b>1</b>' +
    '</small></td></tr></table></div></div></body></html>';
  linear(
    'viewer comments',
    (n) => viewer(rep('<!-- <p>a</p>', n)),
    (t) => parsePjeViewer(t),
  );
  linear(
    'viewer scripts',
    (n) => viewer(rep('<script><p>', n)),
    (t) => parsePjeViewer(t),
  );
  linear(
    'viewer paragraphs',
    (n) => viewer(rep('<p>a&nbsp; b<br></p>', n)),
    (t) => parsePjeViewer(t),
  );
  linear(
    'viewer data-polo',
    (n) => viewer(`<div${rep(' data-polo="', n)}>`),
    (t) => parsePjeViewer(t),
  );
});
