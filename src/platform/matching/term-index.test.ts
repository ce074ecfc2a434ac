import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TermIndex } from './index.ts';

function found(index: TermIndex, terms: readonly string[], text: string): string[] {
  return index
    .find(text)
    .map((i) => terms[i])
    .sort();
}

test('terms: whole words only ("ana silva" is not inside "mariana silvana")', () => {
  const terms = ['Ana Silva', 'silva', 'ana'];
  const index = TermIndex.build(terms);
  assert.deepEqual(found(index, terms, 'MARIANA SILVANA'), []);
  assert.deepEqual(found(index, terms, 'Mariana Silva'), ['silva']);
  assert.deepEqual(found(index, terms, 'Intime-se ANA SILVA.'), ['Ana Silva', 'ana', 'silva']);
  assert.deepEqual(found(index, terms, 'anasilva'), []);
});

test('terms: accent-, case- and HTML-insensitive on both sides', () => {
  const terms = ['José da Conceição', 'MARIA DE FÁTIMA'];
  const index = TermIndex.build(terms);
  assert.deepEqual(found(index, terms, '<td>: JOSE DA CONCEICAO</td>'), ['José da Conceição']);
  assert.deepEqual(found(index, terms, 'Jos&eacute; da Concei&ccedil;&atilde;o e Maria de <b>Fátima</b>'), ['José da Conceição', 'MARIA DE FÁTIMA']);
  assert.deepEqual(found(index, terms, 'José, da Conceição'), ['José da Conceição']); // punctuation between words is a separator like any other
});

test('terms: many overlapping terms are all found in one pass', () => {
  const words = ['maria', 'ana', 'de', 'teste', 'silva', 'souza'];
  // Every contiguous run of the name, and a few near misses.
  const terms: string[] = [];
  for (let i = 0; i < words.length; i++) for (let j = i + 1; j <= words.length; j++) terms.push(words.slice(i, j).join(' '));
  terms.push('ana de teste souza', 'maria ana de teste silva souza lima', 'teste silva souza maria');
  const index = TermIndex.build(terms);
  const got = found(index, terms, 'Maria Ana de Teste Silva Souza');
  assert.equal(got.length, 21);
  assert.deepEqual(got, terms.slice(0, 21).sort());
  // Failure links: a mismatch deep in one term falls back to the longest suffix that is a prefix of another.
  const t2 = ['a b c d', 'b c e', 'c e f', 'e'];
  const i2 = TermIndex.build(t2);
  assert.deepEqual(found(i2, t2, 'a b c e f'), ['b c e', 'c e f', 'e']);
});

test('terms: duplicates share a state and are each reported; empty terms are listed, never found', () => {
  const terms = ['Ana Silva', 'ANA  SILVA', '---', '', 'x'];
  const index = TermIndex.build(terms);
  assert.deepEqual(index.empty, [2, 3]);
  assert.deepEqual(index.find('ana silva x').sort(), [0, 1, 4]);
  assert.equal(index.stats.terms, 5);
});

test('terms: words that start no term (the last ones learned) send the automaton back to its root', () => {
  // 5,000 terms whose later words are new: their ids run past every word that starts a term.
  const terms = Array.from({ length: 5_000 }, (_, i) => `inicio${i % 7} meio${i} fim${i}`);
  const index = TermIndex.build(terms);
  assert.deepEqual(index.find('fim4999 meio4999 fim4999 inicio2 meio4999 fim4999 inicio1 meio4999 fim4999 inicio3'), [4_999]); // 4999 % 7 = 1
  assert.deepEqual(index.find('fim10 fim11 meio12'), []);
});

test('terms: digits and mixed words are words like any other', () => {
  const terms = ['Parte 15', 'RS062492'];
  const index = TermIndex.build(terms);
  assert.deepEqual(found(index, terms, 'Processo PARTE 15 e rs062492'), ['Parte 15', 'RS062492']);
  assert.deepEqual(found(index, terms, 'Processo PARTE 150'), []);
});

test('terms: 100,000 names build in well under a few seconds, compact, and are found', () => {
  const given = ['Fulana', 'Maria', 'Ana', 'Beatriz', 'João', 'José', 'Carlos', 'Sérgio', 'Luíza', 'Otávio'];
  const surnames = ['Souza', 'Silva', 'Oliveira', 'Conceição', 'Araújo', 'Brandão', 'Lima', 'Costa'];
  const syl = ['ba', 'ce', 'di', 'fo', 'gu', 'la', 'me', 'ni', 'po', 'ru', 'sa', 'te', 'vi', 'xo', 'zã', 'lé'];
  const terms: string[] = [];
  for (let i = 0; terms.length < 100_000; i++) {
    const made = syl[i % 16] + syl[(i >> 4) % 16] + syl[(i >> 8) % 16] + syl[(i >> 12) % 16] + syl[(i >> 16) % 16];
    terms.push(`${given[i % 10]} de Teste ${surnames[(i >> 3) % 8]} ${made[0].toUpperCase()}${made.slice(1)}`);
  }
  // Its build time is measured by the bench (bench/matching.ts), not here.
  const index = TermIndex.build(terms);
  assert.equal(index.stats.terms, 100_000);
  assert.ok(index.stats.bytes < 64 * 2 ** 20, `${index.stats.bytes} bytes of typed arrays`);
  for (const k of [0, 1, 77_777, 99_999]) {
    const text = `<td>ADVOGADO(A)</td><td>: ${terms[k].toUpperCase()} (OAB RS062492)</td>`;
    assert.ok(index.find(text).includes(k), terms[k]);
  }
  assert.deepEqual(index.find('Fulana de Teste Souza'), []);
});
