/**
 * PJe's search by the party's document and by OAB, read from the real TJMA form (pje-tjma-listView.html):
 * the document field, the OAB number, its letter input (an id generated per deployment) and the UF select
 * whose values are indexes; the POST body carries them over the form's own values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageText } from '../../http/body.ts';
import { readFileSync } from 'node:fs';
import { parsePjeSearchForm, pjeSearchBody, pjeSearchFields } from './form.ts';

const form = parsePjeSearchForm(pageText(readFileSync(new URL('../fixtures/pje-tjma-listView.html', import.meta.url))));

test("the real form's document and OAB fields", () => {
  assert.equal(form.documentField, 'fPP:dpDec:documentoParte');
  assert.equal(form.oab?.numberField, 'fPP:Decoration:numeroOAB');
  assert.equal(form.oab?.letterField, 'fPP:Decoration:j_id231');
  assert.equal(form.oab?.ufField, 'fPP:Decoration:estadoComboOAB');
  assert.equal(form.oab?.ufValues.AC, '0');
  assert.equal(form.oab?.ufValues.MA, '9');
  assert.equal(Object.keys(form.oab!.ufValues).length, 27);
});

test('a search by CPF, CNPJ or OAB fills those fields, masked as the inputs mask them; the number field stays empty', () => {
  const byCpf = new URLSearchParams(pjeSearchBody(form, pjeSearchFields(form, { kind: 'documento', documento: '00000000191' })!));
  assert.equal(byCpf.get('fPP:dpDec:documentoParte'), '000.000.001-91');
  assert.equal(byCpf.get('fPP:numProcesso-inputNumeroProcessoDecoration:numProcesso-inputNumeroProcesso'), '');
  assert.equal(byCpf.get('AJAXREQUEST'), '_viewRoot');
  assert.equal(byCpf.get(form.searchScriptId), form.searchScriptId);
  assert.equal(pjeSearchFields(form, { kind: 'documento', documento: '11222333000181' })!['fPP:dpDec:documentoParte'], '11.222.333/0001-81');
  assert.deepEqual(pjeSearchFields(form, { kind: 'oab', oab: { uf: 'MA', numero: '16087', suffix: 'A' } }), {
    'fPP:Decoration:numeroOAB': '16087',
    'fPP:Decoration:j_id231': 'A',
    'fPP:Decoration:estadoComboOAB': '9',
  });
  assert.equal(pjeSearchFields(form, { kind: 'nome', nome: 'Fulano de Tal' }), null, 'not asked by name');
});
