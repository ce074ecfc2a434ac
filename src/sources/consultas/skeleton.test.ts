/**
 * A page reduced to its structure (issue 44 item 6): on the real PJe and e-SAJ captures, every name,
 * number and text is gone and every tag, id and class is still there; a page the scan cannot take
 * apart is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'node-html-parser';
import { pageText } from '../http/body.ts';
import { SkeletonError, shapeOf, skeletonOf } from './skeleton.ts';

const page = (name: string) => pageText(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const structure = (html: string) =>
  parse(html)
    .querySelectorAll('*')
    .map((el) => `${el.rawTagName}#${el.id}.${el.classList.value.join('.')}`);

test('the real pages: the people gone, every tag, id and class kept', () => {
  for (const [name, people] of [
    ['pje-tjma-detalhe_ok.html', ['NATANAEL FICTICIO DA AMOSTRA', '000.000.001-91', 'JOSENIEL BEZERRA', 'MA16087']],
    ['esaj-1.html', ['Benedita Ficticia', 'Carina Akemi Rezende Nakashima', '355919']],
    ['set2/tjsp_esaj_cpopg_detalhe.html', ['Fulano Exemplo Ficticio Tal', '11122233396', 'Plna Distribuidora']],
  ] as const) {
    const html = page(name);
    const reduced = skeletonOf(html);
    for (const who of people) {
      assert.ok(html.includes(who), `${name} names ${who}`);
      assert.ok(!reduced.includes(who), `${name}: ${who} is gone`);
    }
    assert.deepEqual(structure(reduced), structure(html), name);
  }
  assert.equal(shapeOf('FULANO DE TAL - CPF: 000.000.001-91 (AUTOR)'), 'xxxxxx xx xxx - xxx: 999.999.999-99 (xxxxx)');
  assert.equal(skeletonOf('<a href="/x?cpf=1" id="fPP:tb" class="btn x">João 12</a>'), '<a href="/x?xxx=9" id="fPP:tb" class="btn x">xxxx 99</a>');
  assert.equal(skeletonOf('<td id="Beltrano de Tal">x</td>'), '<td id="xxxxxxxx xx xxx">x</td>', 'an id with blanks is no id: shaped');
});

test('a page the scan cannot take apart is refused, never saved half-reduced', () => {
  for (const broken of ['<p title="open>Fulano', '<div class="a"', '<script>var nome = "Fulano";', '<!-- Fulano'])
    assert.throws(() => skeletonOf(broken), SkeletonError, broken);
});
