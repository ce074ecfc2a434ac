/**
 * e-SAJ's searches by document, name and OAB: the query e-SAJ's own form sends (the parameter names of
 * the TJMS form capture), and the three answers of `search.do`. The single hit is the real TJSP page
 * (esaj-1.html: a search with one hit lands on the process page); the not-found is the real notice.
 * No capture of a multi-hit e-SAJ list exists: LIST below is built from the README's description of the
 * flow (several hits → a list whose `#listagemDeProcessos a.linkProcesso` open each process; the
 * counter `#contadorDeProcessos`), the same markup the sandbox's e-SAJ simulator serves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageText } from '../../http/body.ts';
import { readFileSync } from 'node:fs';
import { EsajPageError, ESAJ_NOT_FOUND } from './parse.ts';
import { esajSearchQuery, parseEsajSearch } from './search.ts';

const fixture = (name: string) => pageText(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
const FORM = fixture('block-tjms-esaj-cpopg5-search-recaptcha-bounce.html');

const LIST =
  `<!DOCTYPE html>\r\n<html lang="pt-BR"><head><meta charset="UTF-8"></head><body>
<span id="contadorDeProcessos">\r\n\t\t1.234 Processos encontrados\r\n\t</span>
<div id="listagemDeProcessos"><ul class="unj-list-row">
<li><div class="row"><div class="col-md-3"><a ` +
  `href="/cpopg/show.do?processo.codigo=1H0001&amp;processo.foro=100&amp;processo.numero=1000149-71.2024.8.26.0346" class="linkProcesso">
  1000149-71.2024.8.26.0346</a></div><div class="classeProcesso">Procedimento Comum C&iacute;vel</div></div></li>
<li><div class="row"><div class="col-md-3"><a href="/cpopg/show.do?processo.codigo=1H0002&amp;processo.foro=346" ` +
  `class="linkProcesso">0000586-95.2025.8.26.0346</a></div></div></li>
</ul></div></body>\r\n</html>\r\n`;

test("the query names are the search form's: cbPesquisa DOCPARTE / NMPARTE (whole name) / NUMOAB, the value in dadosConsulta.valorConsulta", () => {
  for (const option of ['DOCPARTE', 'NMPARTE', 'NUMOAB']) assert.match(FORM, new RegExp(`<option value="${option}">`));
  assert.match(FORM, /name="dadosConsulta\.valorConsulta"/);
  assert.match(FORM, /name="chNmCompleto"/);
  const doc = new URLSearchParams(esajSearchQuery({ kind: 'documento', documento: '00000000191' }));
  assert.equal(doc.get('cbPesquisa'), 'DOCPARTE');
  assert.equal(doc.get('dadosConsulta.valorConsulta'), '00000000191');
  assert.equal(doc.get('dadosConsulta.localPesquisa.cdLocal'), '-1');
  const nome = new URLSearchParams(esajSearchQuery({ kind: 'nome', nome: 'Benedita Ficticia' }));
  assert.deepEqual([nome.get('cbPesquisa'), nome.get('dadosConsulta.valorConsulta'), nome.get('chNmCompleto')], ['NMPARTE', 'Benedita Ficticia', 'true']);
  // "Digite o número completo da OAB do advogado, incluindo letras e a sigla do estado de origem, por exemplo 654321SP."
  assert.equal(new URLSearchParams(esajSearchQuery({ kind: 'oab', oab: { uf: 'SP', numero: '355919' } })).get('dadosConsulta.valorConsulta'), '355919SP');
  assert.equal(
    new URLSearchParams(esajSearchQuery({ kind: 'oab', oab: { uf: 'MA', numero: '29202', suffix: 'A' } })).get('dadosConsulta.valorConsulta'),
    '29202AMA',
  );
});

test('one hit is the process page (esaj-1.html): its number', () => {
  assert.deepEqual(parseEsajSearch(fixture('esaj-1.html')), { numeros: ['10001497120248260346'], total: 1, limitado: false, links: new Map() });
});

test("several hits: the listed numbers in order, the counter, and each row's link to its page", () => {
  assert.deepEqual(parseEsajSearch(LIST), {
    numeros: ['10001497120248260346', '00005869520258260346'],
    total: 1234,
    // 1234 counted, 2 rows on this page: the list is partial (issue 52), never answered complete.
    limitado: true,
    links: new Map([
      ['10001497120248260346', '/cpopg/show.do?processo.codigo=1H0001&processo.foro=100&processo.numero=1000149-71.2024.8.26.0346'],
      ['00005869520258260346', '/cpopg/show.do?processo.codigo=1H0002&processo.foro=346'],
    ]),
  });
});

test('none: the explicit notice; anything else (a cut page, the captcha bounce, an empty list) is a failure', () => {
  const notFound = `<!DOCTYPE html><html><body><form id="formConsulta"></form><td id="mensagemRetorno"><li>${ESAJ_NOT_FOUND}</li></td></body></html>`;
  assert.deepEqual(parseEsajSearch(notFound), { numeros: [], total: 0, limitado: false, links: new Map() });
  assert.throws(() => parseEsajSearch(LIST.slice(0, LIST.length / 2)), EsajPageError);
  assert.throws(() => parseEsajSearch(FORM), EsajPageError);
  assert.throws(() => parseEsajSearch(LIST.replace(/<li>[\s\S]*<\/li>/, '')), EsajPageError);
});
