/**
 * Every parser of upstream text runs in time linear in its input (docs/architecture.md, "Linear time";
 * issue 45 item 1): each is fed adversarial inputs of growing size (runs of `<`, unterminated tags, long
 * runs of digits and blanks: the shapes that made regular expressions try every position against the
 * rest of the text), and its time may not grow like the square of the input. Only times measured in
 * the same run are compared (platform/testing/linear-time.ts says how, and why 4k/16k/64k characters).
 */
import { test } from 'node:test';
import { parseOabList } from '../src/platform/identifiers/oab.ts';
import { assertLinearTime } from '../src/platform/testing/linear-time.ts';
import { foldText, htmlToText } from '../src/platform/text.ts';
import { detectChallenge } from '../src/sources/consultas/challenge.ts';
import { centavosOfReais } from '../src/sources/consultas/html.ts';
import { splitMaterias } from '../src/sources/dje/split.ts';

/** `unit` repeated to `size` characters. */
const repeat = (unit: string) => (size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
/** `head`, then `unit` repeated, then `tail`: about `size` characters. */
const wrap =
  (head: string, unit: string, tail = '') =>
  (size: number) =>
    head + repeat(unit)(size) + tail;

test('htmlToText: runs of `<`, unterminated tags, unclosed style/script/head, cell boundaries and line breaks without `>`', () => {
  assertLinearTime('htmlToText(<<<…)', htmlToText, repeat('<'));
  assertLinearTime('htmlToText(<a<a…)', htmlToText, repeat('<a'));
  assertLinearTime('htmlToText(<style><style>…)', htmlToText, repeat('<style>'));
  assertLinearTime('htmlToText(<script x<head y…)', htmlToText, repeat('<script x<head y'));
  assertLinearTime('htmlToText(</td>  </td>…)', htmlToText, repeat('</td>  '));
  assertLinearTime('htmlToText(<br<br…)', htmlToText, repeat('<br'));
  assertLinearTime('htmlToText(<p>text</p> with entities)', htmlToText, repeat('<p class="P2">Intimação&nbsp;de &amp; texto</p>\n'));
});

test('foldText (publication matching and search): unterminated tags and comments, entities without `;`', () => {
  assertLinearTime('foldText(<a<a…)', foldText, repeat('<a'));
  assertLinearTime('foldText(<!--<!--…)', foldText, repeat('<!--'));
  assertLinearTime('foldText(&#1111…)', foldText, repeat('&#11111111'));
});

test('challenge detection: `<`, unclosed scripts, forms, captcha words, widgets and Cloudflare paths over the whole page', () => {
  const detect = (page: string) => detectChallenge(page, 200);
  assertLinearTime('detectChallenge(<<<…)', detect, repeat('<'));
  assertLinearTime('detectChallenge(<script<script…)', detect, repeat('<script'));
  assertLinearTime('detectChallenge(<form action="login"…)', detect, repeat('<form action="login'));
  assertLinearTime('detectChallenge(<form action="x" …)', detect, repeat('<form action="x" '));
  assertLinearTime('detectChallenge(validavalida… captcha)', detect, wrap('', 'valida', ' captcha'));
  assertLinearTime('detectChallenge(class="g-recaptcha"…)', detect, repeat('class="g-recaptcha" '));
  assertLinearTime('detectChallenge(data-sitekey=…)', detect, repeat('data-sitekey= class="x" '));
  assertLinearTime('detectChallenge(<input <img src="…)', detect, repeat('<input <img src="'));
  assertLinearTime('detectChallenge(/cdn-cgi/challenge-platform/h/…)', detect, repeat('/cdn-cgi/challenge-platform/h/'));
  assertLinearTime('detectChallenge(if (false) {…)', detect, repeat('if (false) {'));
});

test('parseOabList (STF identifications): blanks between a letter and the number, digits, separators', () => {
  assertLinearTime('parseOabList(A     …x)', parseOabList, wrap('A', ' ', 'x'));
  assertLinearTime('parseOabList(1111…)', parseOabList, repeat('1'));
  assertLinearTime("parseOabList(OAB's (1, 2, …)", parseOabList, wrap("OAB's (", '123/SP, A 1 - x; '));
  assertLinearTime('parseOabList(SP - - - …)', parseOabList, wrap('SP', ' - ', '1x'));
});

test('the electoral gazette splitter: `ADVOGADO : 1111…`, long blanks, parentheses and labels', () => {
  const edition = { tribunal: 'TRE-PA', numero: 223, data: '2026-10-02', tipo: 'DJE', url: null, paginas: 1 } as never;
  const materia = (line: string) => [
    { page: 1, text: 'PROCESSO : 0600270-39.2024.6.14.0000 CUMPRIMENTO DE SENTENÇA (Belém - PA)' },
    { page: 1, text: line },
  ];
  const split = (line: string) => splitMaterias(edition, materia(line));
  assertLinearTime('split(ADVOGADO : 1111…)', split, wrap('ADVOGADO : ', '1'));
  assertLinearTime('split(ADVOGADO : 1.1.1.…)', split, wrap('ADVOGADO : ', '1.'));
  assertLinearTime('split(ADVOGADO : NOME (1111…)', split, wrap('ADVOGADO : NOME (', '1'));
  assertLinearTime('split(ADVOGADO : NOME      x)', split, wrap('ADVOGADO : NOME', ' ', 'x'));
  assertLinearTime('split(ADVOGADO : OAB     …)', split, wrap('ADVOGADO : OAB', ' ', 'x'));
  assertLinearTime('split(INTERESSADO :      …\\r)', split, wrap('INTERESSADO :', ' ', 'x\r'));
  assertLinearTime('split(PROCESSO Nº      …)', (line) => splitMaterias(edition, [{ page: 1, text: line }]), wrap('PROCESSO Nº', ' ', 'x'));
  assertLinearTime('split(PROCESSO : <CNJ>     …\\r)', split, wrap('PROCESSO : 0600270-39.2024.6.14.0000', ' ', 'x\r'));
});

test('e-SAJ amounts: long runs of digits and of thousands groups without cents', () => {
  assertLinearTime('centavosOfReais(1111…)', centavosOfReais, repeat('1'));
  assertLinearTime('centavosOfReais(1.111.111…)', centavosOfReais, wrap('1', '.111', 'x'));
});
