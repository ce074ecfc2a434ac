/**
 * The e-SAJ parser on the real TJSP page (fixtures/esaj-1.html, reference/upstream/real/), field by
 * field. The same case as TJSP's JSON API answered it (fixtures/esaj-4..6.json) is the oracle for the
 * parties, the 118 movements and the incidents: what the page shows must be what the API says.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pageText } from '../../http/body.ts';
import { readFileSync } from 'node:fs';
import { EsajPageError, ESAJ_NOT_FOUND, parseEsajPage } from './parse.ts';
import { esajPolo } from './roles.ts';
import { Anomalies } from '../anomalies.ts';
import type { ConsultaCase } from '../record.ts';

const fixture = (name: string) => pageText(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
const PAGE = fixture('esaj-1.html');
const CTX = { numeroCnj: '10001497120248260346', tribunal: 'TJSP', grau: 1 as const };
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
const isoOf = (br: string) => `${br.slice(6, 10)}-${br.slice(3, 5)}-${br.slice(0, 2)}`;

function parsed(): ConsultaCase {
  const page = parseEsajPage(PAGE, CTX);
  assert.equal(page.kind, 'case');
  return (page as { case: ConsultaCase }).case;
}

describe('e-SAJ process page (TJSP, esaj-1.html)', () => {
  const c = parsed();

  test('header: class, subject, vara, foro, distribution, value, situation', () => {
    assert.equal(c.numeroCnj, '10001497120248260346');
    assert.equal(c.sistema, 'esaj');
    assert.equal(c.classe, 'Procedimento Comum Cível');
    assert.deepEqual(c.assuntos, ['Responsabilidade do Fornecedor']);
    assert.equal(c.orgao, '2ª Vara Judicial');
    assert.equal(c.foro, 'Foro de Martinópolis');
    assert.equal(c.juiz, null, 'the page has no #juizProcesso');
    assert.equal(c.distribuidoEm, '2024-02-06T13:47:00-03:00');
    assert.equal(c.valorCausaCentavos, 8_143_978, 'R$         81.439,78');
    assert.equal(c.situacao, 'Extinto');
    assert.equal(c.segredo, false);
    assert.equal(c.processoReferencia, null);
  });

  test('every party of #tableTodasPartes, with its role, pole and lawyers, as the JSON API lists them', () => {
    const api = JSON.parse(fixture('esaj-4.json')) as { nome: string; participacao: string; advogados: string[] }[];
    assert.equal(c.partes.length, api.length);
    for (const [i, p] of c.partes.entries()) {
      assert.equal(p.nome, api[i]!.nome);
      assert.deepEqual(
        p.advogados.map((a) => a.nome),
        api[i]!.advogados,
        `lawyers of ${p.nome}`,
      );
      assert.equal(p.documento, null, 'e-SAJ masks documents out of the party table');
    }
    assert.deepEqual(
      c.partes.map((p) => [p.polo, p.tipo]),
      [
        ['ATIVO', 'Requerente'],
        ['PASSIVO', 'Requerida'],
        ['PASSIVO', 'Requerido'],
        ['PASSIVO', 'Requerido'],
        ['PASSIVO', 'Requerido'],
        ['PASSIVO', 'Requerido'],
        ['OUTROS', 'TerIntCer'],
        ['OUTROS', 'TerIntCer'],
      ],
    );
  });

  test('lawyers get the OABs the DJE texts print next to their names; none invented', () => {
    const oabs = c.partes.flatMap((p) => p.advogados.map((a) => `${a.nome}=${a.oab ? a.oab.uf + a.oab.numero : '-'}`));
    assert.deepEqual(oabs, [
      'Carina Akemi Rezende Nakashima=SP355919',
      'Fabio Cabral Silva de Oliveira Monteiro=SP261844',
      'Fabio Cabral Silva de Oliveira Monteiro=SP261844',
      // One lawyer listed twice holds two registrations.
      'Domiciano Noronha de Sá=SP299489',
      'Domiciano Noronha de Sá=RJ123116',
      'Eduardo Chalfin=SP241287',
      'Osmar Mendes Paixão Côrtes=-',
      'Francisco Jhonatan Goncalves=DF35442',
      'Eduardo Chalfin=SP241287',
    ]);
  });

  test('all 118 movements, newest first, each with its day, title and complement text', () => {
    const api = JSON.parse(fixture('esaj-5.json')) as { movimento: string; descricao: string; dtMovimento: string }[];
    assert.equal(c.movimentos.length, 118);
    for (const [i, m] of c.movimentos.entries()) {
      const want = api[i]!;
      assert.equal(m.data, isoOf(want.dtMovimento), `movement ${i} day`);
      assert.equal(m.titulo, flat(want.movimento), `movement ${i} title`);
      assert.equal(m.texto === null ? '' : flat(m.texto), flat(want.descricao), `movement ${i} text`);
    }
    assert.equal(c.movimentos.filter((m) => m.texto !== null).length, 99);
  });

  test('texts keep their lines, entities decoded, and a masked CPF stays masked', () => {
    const decision = c.movimentos.find((m) => m.texto?.includes('Teor do ato: Vistos. 1. Retifique-se'))!;
    assert.match(decision.texto!, /^Relação: 0087\/2024\nTeor do ato: Vistos\./);
    assert.match(decision.texto!, /CPF \*\*\*\.000\.014-\*\*/);
    assert.match(decision.texto!, /ação de ressarcimento/);
    assert.ok(!/&[a-z]+;|\r/.test(decision.texto!));
  });

  test('incidents: class, number and day', () => {
    const api = JSON.parse(fixture('esaj-6.json')) as { classe: string; data: string }[];
    assert.deepEqual(c.incidentes, [
      { numeroCnj: '00005869520258260346', classe: api[0]!.classe, data: isoOf(api[0]!.data) },
      { numeroCnj: '00007887220258260346', classe: api[1]!.classe, data: isoOf(api[1]!.data) },
    ]);
  });
});

describe('what is not a case page', () => {
  test('the explicit not-found notice is not_found', () => {
    const html =
      `<html><body><form id="formConsulta"></form><div id="spwTabelaMensagem"><td ` +
      `id="mensagemRetorno"><li>${ESAJ_NOT_FOUND}</li></td></div></body></html>`;
    assert.deepEqual(parseEsajPage(html, CTX), { kind: 'not_found' });
  });

  test('a page cut short is a failure, never a shorter case', () => {
    const cut = PAGE.slice(0, Math.floor(PAGE.length * 0.6));
    assert.throws(() => parseEsajPage(cut, CTX), EsajPageError);
  });

  test('the search form bounced back (TJMS reCAPTCHA) is a failure, never not_found', () => {
    assert.throws(() => parseEsajPage(fixture('block-tjms-esaj-cpopg5-search-recaptcha-bounce.html'), { ...CTX, tribunal: 'TJMS' }), EsajPageError);
  });

  test('another case than the one asked is a failure', () => {
    assert.throws(() => parseEsajPage(PAGE, { ...CTX, numeroCnj: '00005869520258260346' }), /another case/);
  });

  test('a movement row without a day degrades alone: left out, the rest of the case answered, the anomaly noted', () => {
    const altered = PAGE.replace(/(<td class="dataMovimentacao"[^>]*>)\s*20\/03\/2026/g, '$1');
    assert.notEqual(altered, PAGE);
    const anomalies = new Anomalies();
    const page = parseEsajPage(altered, CTX, anomalies);
    assert.equal(page.kind, 'case');
    const shown = (page as { case: ConsultaCase }).case.movimentos.length;
    assert.ok(shown > 100 && shown < 118, `${shown} movements`);
    assert.deepEqual(new Set(anomalies.campos), new Set(['movimento.data']));
    assert.equal(anomalies.campos.length, 118 - shown);
  });
});

describe('e-SAJ roles', () => {
  test('each side read from the role', () => {
    for (const r of ['Reqte', 'Autor', 'Autora', 'Exeqte', 'Apelante', 'Imptte']) assert.equal(esajPolo(r), 'ATIVO', r);
    for (const r of ['Reqdo', 'Reqda', 'Réu', 'Ré', 'Exectdo', 'Apelado', 'Autor do Fato']) assert.equal(esajPolo(r), 'PASSIVO', r);
    for (const r of ['TerIntCer', 'Testemunha', 'Perito', 'Interessado']) assert.equal(esajPolo(r), 'OUTROS', r);
  });
});

test('the second subject printed only in the collapsed block ("Outros assuntos") is read after the first (issue 52)', () => {
  const block =
    '<div class="col-lg-3 mb-2"><span class="unj-label">Outros assuntos</span>' +
    '<div class="line-clamp__2"><span title="Indenização por Dano Moral">Indenização por Dano Moral</span></div></div>';
  const withOthers = PAGE.replace(
    '<div class="col-lg-2 col-xl-2 mb-2">\n                        <span id="labelAreaProcesso"',
    `${block}<div class="col-lg-2 col-xl-2 mb-2">\n                        <span id="labelAreaProcesso"`,
  );
  assert.notEqual(withOthers, PAGE);
  const page = parseEsajPage(withOthers, CTX);
  assert.equal(page.kind, 'case');
  const c = (page as { case: ConsultaCase }).case;
  assert.equal(c.assuntos.length, 2);
  assert.equal(c.assuntos[1], 'Indenização por Dano Moral');
  assert.deepEqual((parseEsajPage(PAGE, CTX) as { case: ConsultaCase }).case.assuntos, [c.assuntos[0]]);
});
