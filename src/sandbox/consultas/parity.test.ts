/**
 * The simulated e-SAJ page has the real page's structure (DESIGN.md §5), compared as DOM with the TJSP
 * capture (sources/consultas/fixtures/esaj-1.html): every id the parser reads, its element and the
 * spelling of its text (a padded `R$`, `dd/mm/aaaa às hh:mm - …`), and the shape of each party row and
 * movement row (their cells, classes and the spans in them), both ways. sandbox/parity.ts compares JSON;
 * a page is compared here by its elements.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageText } from '../../sources/http/body.ts';
import { readFileSync } from 'node:fs';
import { parsePage, type HTMLElement } from '../../sources/consultas/html.ts';
import { parseEsajPage } from '../../sources/consultas/esaj/parse.ts';
import { generateDataset } from '../data/dataset.ts';
import { ManualClock } from '../../platform/clock.ts';
import { esajCasePage, esajSecondDegreePage } from './esaj-page.ts';

const CAPTURE = pageText(readFileSync(new URL('../../sources/consultas/fixtures/esaj-1.html', import.meta.url)));
const clock = new ManualClock('2026-03-10T00:00:00.000Z');
const dataset = generateDataset({ cases: 400, seed: 42, clock });
const c = dataset.cases.find(
  (x) => x.court.sigla === 'TJSP' && x.filedAt <= dataset.now() && x.valorCausaCentavos !== null && x.partes.some((p) => p.advogados.length > 0),
)!;
const SIMULATED = esajCasePage(c, c.instances.find((i) => i.grau !== 'G2')!, dataset.now());

/** The ids the parser reads, and how their text is spelled on the real page. */
const FIELDS: [string, RegExp][] = [
  ['#numeroProcesso', /^\d{7}-\d{2}\.\d{4}\.8\.26\.\d{4}$/],
  ['#labelSituacaoProcesso', /^\S.*$/],
  ['#classeProcesso', /^\S.*$/],
  ['#assuntoProcesso', /^\S.*$/],
  ['#foroProcesso', /^Foro de .+$/],
  ['#varaProcesso', /^\S.*$/],
  ['#dataHoraDistribuicaoProcesso', /^\d{2}\/\d{2}\/\d{4} às \d{2}:\d{2} - \S+$/],
  ['#valorAcaoProcesso', /^R\$ {2,}\d{1,3}(\.\d{3})*,\d{2}$/],
];

/** An element as its tag, classes and the style the parser keys on (italic complements). */
function label(el: HTMLElement): string {
  const classes = [...el.classList.values()].sort().join('.');
  const italic = /font-style:\s*italic/.test(el.getAttribute('style') ?? '') ? '[italic]' : '';
  return `${el.tagName.toLowerCase()}${classes ? `.${classes}` : ''}${italic}`;
}

/** The shape of a row: each element under it, with its path of labels (ids and text aside). */
function shape(el: HTMLElement, prefix = ''): string[] {
  return el.childNodes
    .filter((n): n is HTMLElement => n.nodeType === 1)
    .flatMap((child) => {
      const path = `${prefix}/${label(child)}`;
      return [path, ...shape(child, path)];
    });
}

function rowShapes(root: HTMLElement, selector: string): Set<string> {
  return new Set(root.querySelectorAll(selector).map((row) => shape(row).join(' ')));
}

const real = parsePage(CAPTURE);
const simulated = parsePage(SIMULATED);

test('every field the parser reads is there, in the same element, spelled the same way', () => {
  for (const [selector, spelling] of FIELDS) {
    const a = real.querySelector(selector);
    const b = simulated.querySelector(selector);
    assert.ok(a && b, `${selector} in both`);
    assert.equal(label(b), label(a), `${selector}: same element`);
    for (const [page, el] of [
      ['capture', a],
      ['simulator', b],
    ] as const)
      assert.match(
        el.text
          .replace(/\u00a0/g, ' ')
          .trim()
          .replace(/\s*\n\s*/g, ' '),
        spelling,
        `${selector} in the ${page}`,
      );
  }
});

test('party rows: the same cells, role span and lawyer spans, both ways', () => {
  for (const table of ['#tableTodasPartes', '#tablePartesPrincipais']) {
    const a = rowShapes(real, `${table} tr`);
    const b = rowShapes(simulated, `${table} tr`);
    assert.deepEqual(
      [...b].filter((s) => !a.has(s)),
      [],
      `${table}: nothing the capture lacks`,
    );
    // Rows differ by their number of lawyers; the simulated case has a party with lawyers, shaped as one of the capture's.
    assert.ok(
      [...b].some((s) => /\/span\.mensagemExibindo(?!\.)/.test(s)),
      `${table}: a party row with a lawyer`,
    );
  }
  assert.match(simulated.querySelector('#tableTodasPartes')!.getAttribute('style')!, /display: none/);
});

test('movement rows: day cell, spacer, description with the italic complement, both ways', () => {
  for (const body of ['#tabelaTodasMovimentacoes', '#tabelaUltimasMovimentacoes']) {
    const a = rowShapes(real, `${body} tr.containerMovimentacao`);
    const b = rowShapes(simulated, `${body} tr.containerMovimentacao`);
    // Allowance: the capture links some titles to their documents (`a.linkMovVincProc`); the simulator has no documents to link.
    const plain = new Set([...a].filter((s) => !s.includes('linkMovVincProc')));
    assert.deepEqual(
      [...b].filter((s) => !plain.has(s)),
      [],
      `${body}: nothing the capture lacks`,
    );
    assert.deepEqual(
      [...plain].filter((s) => !b.has(s)),
      [],
      `${body}: every plain row kind of the capture`,
    );
  }
});

test('the page as a whole: mixed line endings, entity-encoded accents, closed, and read by the same parser', () => {
  for (const page of [CAPTURE, SIMULATED]) {
    assert.ok(page.includes('\r\n') && /[^\r]\n/.test(page), 'CRLF among LF');
    assert.match(page, /&[a-z]+;/, 'entities');
    assert.match(page, /<\/html>\s*$/);
  }
  const read = parseEsajPage(SIMULATED, { numeroCnj: c.numero, tribunal: 'TJSP', grau: 1 });
  assert.equal(read.kind, 'case');
});

// The second degree (issue 52 item 3): the appeal's page under its origin number, against the TJAL capture.
const CAPTURE_2G = pageText(
  readFileSync(new URL('../../sources/consultas/fixtures/set3/tjal_esaj_cposg_detalhe_0710802-55.2018.8.02.0001.html', import.meta.url)),
);
const appealed = dataset.cases.find(
  (x) => ['TJSP', 'TJAL', 'TJAC'].includes(x.court.sigla) && x.instances.some((i) => i.grau === 'G2') && x.partes.some((p) => p.advogados.some((a) => a.oab)),
)!;
const SIMULATED_2G = esajSecondDegreePage(appealed, appealed.instances.find((i) => i.grau === 'G2')!, dataset.now());
const real2 = parsePage(CAPTURE_2G);
const simulated2 = parsePage(SIMULATED_2G);

const FIELDS_2G: [string, RegExp][] = [
  ['#numeroProcesso', /^\d{7}-\d{2}\.\d{4}\.8\.\d{2}\.\d{4}$/],
  ['#situacaoProcesso', /^\S.*$/],
  ['#classeProcesso', /^\S.*$/],
  ['#assuntoProcesso', /^\S.*$/],
  ['#secaoProcesso', /^\S.*$/],
  ['#orgaoJulgadorProcesso', /^\S.*$/],
  ['#relatorProcesso', /^\S.*$/],
  ['#valorAcaoProcesso', /^\d{1,3}(\.\d{3})*,\d{2}$/],
];

test('2nd degree: every header field in the same element, spelled the same way; no distribution, no vara', () => {
  for (const [selector, spelling] of FIELDS_2G) {
    const a = real2.querySelector(selector);
    const b = simulated2.querySelector(selector);
    assert.ok(a && b, `${selector} in both`);
    assert.equal(label(b), label(a), `${selector}: same element`);
    for (const el of [a, b]) assert.match(el.text.replace(/\s+/g, ' ').trim(), spelling, selector);
  }
  for (const absent of ['#dataHoraDistribuicaoProcesso', '#varaProcesso', '#foroProcesso', '#labelSituacaoProcesso']) {
    assert.equal(real2.querySelector(absent), null, `${absent} not in the capture`);
    assert.equal(simulated2.querySelector(absent), null, `${absent} not in the simulator`);
  }
});

test('2nd degree: party rows (classed by pole, role with a colon, OAB in a hidden input) and movement rows, both ways', () => {
  // Rows differ by their number of lawyers: each run of lawyer blocks (br, label span, hidden OAB input) counts as one.
  const lawyers = / \/td\.nomeParteEAdvogado\/br \/td\.nomeParteEAdvogado\/span\.mensagemExibindo \/td\.nomeParteEAdvogado\/input/g;
  const parties = (root: HTMLElement) =>
    new Set([...rowShapes(root, '#tableTodasPartes tr')].map((s) => s.replace(lawyers, ' <lawyer>').replace(/( <lawyer>)+/g, ' <lawyers>')));
  assert.deepEqual(
    [...parties(simulated2)].filter((s) => !parties(real2).has(s)),
    [],
    'party rows: nothing the capture lacks',
  );
  const roles = (root: HTMLElement) => root.querySelectorAll('#tableTodasPartes .tipoDeParticipacao').map((s) => s.text.replace(/\u00a0/g, ' ').trim());
  for (const r of [...roles(real2), ...roles(simulated2)]) assert.match(r, /^\S+:$/);
  const poles = (root: HTMLElement) => new Set(root.querySelectorAll('#tableTodasPartes tr').map((tr) => tr.getAttribute('class')));
  assert.deepEqual(
    [...poles(simulated2)].filter((p) => !poles(real2).has(p)),
    [],
  );
  for (const body of ['#tabelaTodasMovimentacoes', '#tabelaUltimasMovimentacoes']) {
    const a = rowShapes(real2, `${body} tr.movimentacaoProcesso`);
    const b = rowShapes(simulated2, `${body} tr.movimentacaoProcesso`);
    const plain = new Set([...a].filter((s) => !s.includes('linkMovVincProc')));
    assert.ok(b.size > 0 && plain.size > 0);
    assert.deepEqual(
      [...b].filter((s) => !plain.has(s)),
      [],
      `${body}: nothing the capture lacks`,
    );
  }
});

test('2nd degree: both pages read by the same parser into a case with relator, parties and movements', () => {
  for (const [page, numeroCnj] of [
    [CAPTURE_2G, '07108025520188020001'],
    [SIMULATED_2G, appealed.numero],
  ] as const) {
    const read = parseEsajPage(page, { numeroCnj, tribunal: 'TJ', grau: 2 });
    assert.equal(read.kind, 'case');
    if (read.kind !== 'case') continue;
    assert.ok(read.case.juiz && read.case.orgao && read.case.foro);
    assert.ok(read.case.partes.length > 0 && read.case.partes.every((p) => p.tipo && !p.tipo.endsWith(':')));
    assert.ok(
      read.case.partes.some((p) => p.advogados.some((a) => a.oab)),
      'an OAB from the hidden input',
    );
    assert.ok(read.case.movimentos.length > 0 && read.case.movimentos.some((m) => m.texto));
  }
});
