import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldText as searchFold } from '../text.ts';
import { foldTerm, foldText } from './index.ts';
import { FoldedText, KIND_DIGITS, KIND_LETTERS, KIND_MIXED, SEP_DASH, SEP_DOT, SEP_SLASH, SEP_TAG, SEP_WS } from './fold.ts';

test('fold: lower case, no diacritics, one space between words', () => {
  assert.equal(foldText('  JOSÉ da CONCEIÇÃO,  Ângela  Müller-Ñúñez!! '), 'jose da conceicao angela muller nunez');
  assert.equal(foldText('São Paulo/SP — 15/09/2026'), 'sao paulo sp 15 09 2026');
  assert.equal(foldText('AÇÃO CÍVEL'), 'acao civel');
  assert.equal(foldText(''), '');
  assert.equal(foldText('...---...'), '');
});

test('fold: combining marks (already decomposed text) and invisible characters stay inside a word', () => {
  assert.equal(foldText('Jose\u0301 Conceic\u0327a\u0303o'), 'jose conceicao');
  assert.equal(foldText('Con\u00adcei\u200bção'), 'conceicao');
});

test('fold: º and ª read as o and a, the degree sign is a separator', () => {
  assert.equal(foldText('nº 123, 1ª Vara, 10°C'), 'no 123 1a vara 10 c');
});

test('fold: HTML tags dropped (they separate words), style/script/comments skipped', () => {
  assert.equal(foldText('<p align="center">Processo</p><br/><b>PARTE</b>'), 'processo parte');
  assert.equal(foldText('<html><head><style>body{ font-family: Times }</style></head><body>Fim</body></html>'), 'fim');
  assert.equal(foldText('a<SCRIPT type="x">var x = "<b>";</SCRIPT>b'), 'a b');
  assert.equal(foldText('a<!-- comentário <b>x</b> -->b'), 'a b');
  assert.equal(foldText('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN"><p>ok</p>'), 'ok');
  assert.equal(foldText('<td>ADVOGADO(A)</td><td>: NOME</td>'), 'advogado a nome');
});

test('fold: a < that opens no tag is text', () => {
  assert.equal(foldText('valor < 5000 e 3<4'), 'valor 5000 e 3 4');
  assert.equal(foldText('a <b sem fim'), 'a b sem fim');
});

test('fold: entities decoded, named and numeric, inside words too', () => {
  assert.equal(foldText('Concei&ccedil;&atilde;o&nbsp;&amp;&nbsp;Filhos'), 'conceicao filhos');
  assert.equal(foldText('Concei&#231;&#xE3;o &#X00C9;rica'), 'conceicao erica');
  assert.equal(foldText('AC&Oacute;RD&Atilde;O n&ordm; 5'), 'acordao no 5');
  assert.equal(foldText('&lt;b&gt;texto&lt;/b&gt;'), 'b texto b');
  assert.equal(foldText('&naoexiste; &amp x'), 'naoexiste amp x');
});

test('fold: letters outside Latin-1 and astral characters', () => {
  assert.equal(foldText('Ελληνικά ДОКУМЕНТ İstanbul'), 'ελληνικα документ istanbul');
  assert.equal(foldText('a😀b'), 'a b');
  assert.equal(foldText('x𝐀y').length, 4); // a math letter is a letter: one word, kept as is
});

test('fold: same result as the search folding (platform/text.ts) on plain text', () => {
  const samples = [
    'Fulana de Teste Souza',
    'EMPRESA FICTÍCIA ÔMEGA SAÚDE S.A.',
    'Intimação realizada no sistema eproc.',
    'Evento 66 - 15/09/2026 - Recurso extraordinário não admitido',
    'Ação Penal — Procedimento Ordinário; art. 5º?',
    'Ünïcödé   ãõ   ÇÑ',
    'PARTE/PROCESSO SIGILOSO OU PROCESSO ESTá EM SEGREDO DE JUSTIçA.1',
  ];
  for (const s of samples) assert.equal(foldText(s), searchFold(s.replace(/º/g, 'o')), s);
});

test('foldTerm: the same folding; empty when nothing is left', () => {
  assert.equal(foldTerm('  Ana  SILVA '), 'ana silva');
  assert.equal(foldTerm('Concei&ccedil;&atilde;o'), 'conceicao');
  assert.equal(foldTerm(''), '');
  assert.equal(foldTerm(' -- '), '');
  assert.throws(() => foldTerm(undefined as unknown as string), TypeError);
});

test('FoldedText: words, kinds, separators and hashes', () => {
  const t = new FoldedText();
  const n = t.scan('OAB/RS 62.492-A <b>rs062492</b> x');
  assert.equal(n, 7);
  assert.deepEqual(
    Array.from({ length: n }, (_, i) => t.word(i)),
    ['oab', 'rs', '62', '492', 'a', 'rs062492', 'x'],
  );
  assert.deepEqual(Array.from(t.kind.subarray(0, n)), [KIND_LETTERS, KIND_LETTERS, KIND_DIGITS, KIND_DIGITS, KIND_LETTERS, KIND_MIXED, KIND_LETTERS]);
  assert.equal(t.sepFlags[1], SEP_SLASH);
  assert.equal(t.sepCount[1], 1);
  assert.equal(t.sepFlags[2], SEP_WS);
  assert.equal(t.sepFlags[3], SEP_DOT);
  assert.equal(t.sepFlags[4], SEP_DASH);
  assert.equal(t.sepFlags[5], SEP_WS | SEP_TAG);
  assert.ok(t.sepCount[5] > 1);
  assert.equal(t.text(), 'oab rs 62 492 a rs062492 x');
  // The same word hashes the same wherever it is and however it was written.
  const u = new FoldedText();
  u.scan('RS062492 Rs062492');
  assert.equal(u.hash[0], t.hash[5]);
  assert.equal(u.hash[1], t.hash[5]);
});

test('FoldedText: long texts grow the buffers; a scan replaces the previous one', () => {
  const t = new FoldedText();
  const long = Array.from({ length: 5000 }, (_, i) => `Palavra${i} Ação`).join(' ');
  const n = t.scan(long);
  assert.equal(n, 10_000);
  assert.equal(t.word(9_999), 'acao');
  assert.equal(t.word(9_998), 'palavra4999');
  assert.equal(t.scan('fim'), 1);
  assert.equal(t.text(), 'fim');
});
