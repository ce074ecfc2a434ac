import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PublicationMatcher, type MatchablePublication, type MatchPattern } from './index.ts';

// The real DJEN sample as the connector's fixtures keep it (a copy of reference/upstream/djen-comunicacao-sample.json).
const SAMPLE = path.resolve(import.meta.dirname, '../../sources/djen/fixtures/djen-comunicacao-sample.json');

interface DjenItem {
  texto: string;
  numero_processo: string;
  destinatarios: { nome: string }[];
  destinatarioadvogados: { advogado: { nome: string; numero_oab: string; uf_oab: string } }[];
}

/** The sample's items as the matcher reads them (the fields PublicationRecord normalizes). */
function samplePublications(): MatchablePublication[] {
  const sample = JSON.parse(fs.readFileSync(SAMPLE, 'utf8')) as { items: DjenItem[] };
  return sample.items.map((it) => ({
    texto: it.texto,
    numeroCnj: it.numero_processo,
    destinatarios: it.destinatarios.map((d) => ({ nome: d.nome })),
    advogados: it.destinatarioadvogados.map((a) => ({
      nome: a.advogado.nome,
      oab: { uf: a.advogado.uf_oab, numero: a.advogado.numero_oab.replace(/^0+/, '') },
    })),
  }));
}

function pub(texto: string, extra: Partial<MatchablePublication> = {}): MatchablePublication {
  return { texto, advogados: [], destinatarios: [], numeroCnj: null, ...extra };
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

test('matcher: the real DJEN sample against OAB, term and case-number monitors', () => {
  const patterns: MatchPattern[] = [
    { id: 1, kind: 'oab', value: 'RS900000' }, // in the text ("(OAB RS900000)") and the lawyers
    { id: 2, kind: 'oab', value: 'OAB/RS 901.111' }, // only in the structured lawyers (any spelling accepted)
    { id: 3, kind: 'oab', value: 'CE903333' }, // only in the second item's lawyers
    { id: 4, kind: 'termo', value: 'Vivian Josete Pantaleão Caminha' }, // the rapporteur, in the eproc header
    { id: 5, kind: 'termo', value: 'parte 4' }, // an addressee
    { id: 6, kind: 'processo', value: '5004073-05.2025.4.04.7113' },
    { id: 7, kind: 'termo', value: 'Advogada Exemplo Quatro' }, // a lawyer's name, only in the structured list
    { id: 8, kind: 'oab', value: 'SP900000' }, // same number, other UF: never
    { id: 9, kind: 'termo', value: 'recurso especial' },
    { id: 10, kind: 'termo', value: 'pantaleao caminha vivian' }, // the words, but not in this order
  ];
  const m = PublicationMatcher.build(patterns);
  assert.deepEqual(m.rejected, []);
  const [eproc, tjrs] = samplePublications();
  assert.deepEqual(sorted(m.match(eproc)), [1, 2, 4, 5, 6, 9]);
  assert.deepEqual(sorted(m.match(tjrs)), [1, 2, 3, 7]);
  // The text alone: the OAB and the case number printed in it still match.
  assert.deepEqual(sorted(m.match(pub(eproc.texto))), [1, 4, 5, 6, 9]);
});

test('matcher: processo from the field and from the text (masked or bare)', () => {
  const m = PublicationMatcher.build([
    { id: 1, kind: 'processo', value: '50040730520254047113' },
    { id: 2, kind: 'processo', value: '0000001-20.2026.8.26.0100' },
    { id: 3, kind: 'processo', value: '1111111-11.2011.1.11.1111' },
  ]);
  assert.deepEqual(m.match(pub('nada', { numeroCnj: '50040730520254047113' })), [1]);
  assert.deepEqual(m.match(pub('Autos nº 5004073-05.2025.4.04.7113.')), [1]);
  assert.deepEqual(m.match(pub('apensos 00000012020268260100 e 5004073-05.2025.4.04.7113')), [2, 1]);
  assert.deepEqual(m.match(pub('5004073-05.2025.4.04 7113 e 500407305202540471131')), []);
});

test('matcher: OABs from the structured lawyers and from every spelling in the text', () => {
  const m = PublicationMatcher.build([
    { id: 1, kind: 'oab', value: 'RS62492' },
    { id: 2, kind: 'oab', value: 'SP123456A' },
    { id: 3, kind: 'oab', value: '7113/RS' },
  ]);
  for (const text of ['OAB RS062492', 'OAB/RS 62.492', 'ADVOGADO: X (62492/RS)', 'Adv. X 62.492-RS', 'advogada X RS-62492', 'RS062492']) {
    assert.deepEqual(m.match(pub(text)), [1], text);
  }
  assert.deepEqual(m.match(pub('OAB/SP nº 123.456-A')), [2]);
  assert.deepEqual(m.match(pub('OAB/SP nº 123.456')), []); // no suffix: another registration
  assert.deepEqual(m.match(pub('x', { advogados: [{ oab: { uf: 'SP', numero: '123456A' } }, { oab: null }] })), [2]);
  assert.deepEqual(m.match(pub('x', { advogados: [{ oab: { uf: 'rs', numero: '062492' } }] })), [1]);
  // The tail of a case number is not the OAB 7113/RS.
  assert.deepEqual(m.match(pub('APELAÇÃO CÍVEL Nº 5004073-05.2025.4.04.7113/RS, advogado intimado')), []);
});

test('matcher: terms in the text and in the addressees, whole words, never across two names', () => {
  const m = PublicationMatcher.build([
    { id: 1, kind: 'termo', value: 'Ana Silva' },
    { id: 2, kind: 'termo', value: 'silva souza' },
    { id: 3, kind: 'termo', value: 'Empresa Fictícia Ômega' },
  ]);
  assert.deepEqual(m.match(pub('MARIANA SILVANA e Souza')), []);
  assert.deepEqual(m.match(pub('Intime-se <b>ANA SILVA</b> SOUZA')), [1, 2]);
  assert.deepEqual(m.match(pub('nada', { destinatarios: [{ nome: 'EMPRESA FICTICIA OMEGA' }] })), [3]);
  // "Ana Silva" + "Souza Lima": the two names are not one text.
  assert.deepEqual(m.match(pub('nada', { destinatarios: [{ nome: 'Maria Ana' }, { nome: 'Silva Souza' }] })), [2]);
});

test('matcher: every id once, whatever matched it and however often', () => {
  const m = PublicationMatcher.build([
    { id: 7, kind: 'termo', value: 'Fulana de Teste' },
    { id: 7, kind: 'termo', value: 'fulana' },
    { id: 7, kind: 'oab', value: 'RS1234' },
    { id: 7, kind: 'processo', value: '50040730520254047113' },
    { id: 8, kind: 'termo', value: 'Fulana de Teste' },
    { id: 8, kind: 'termo', value: 'FULANA DE TESTE' },
  ]);
  const text = 'Fulana de Teste, OAB/RS 1.234, Fulana de Teste (OAB RS001234), autos 5004073-05.2025.4.04.7113';
  const extra = {
    destinatarios: [{ nome: 'Fulana de Teste' }],
    advogados: [{ oab: { uf: 'RS', numero: '1234' }, nome: 'Fulana' }],
    numeroCnj: '50040730520254047113',
  };
  assert.deepEqual(m.match(pub(text, extra)), [7, 8]);
  // Deduplication is per call.
  assert.deepEqual(m.match(pub(text)), [7, 8]);
  assert.deepEqual(m.match(pub('outra coisa')), []);
});

test('matcher: invalid patterns are rejected one by one, the others still match', () => {
  const m = PublicationMatcher.build([
    { id: 1, kind: 'oab', value: 'XX123' },
    { id: 2, kind: 'oab', value: 'RS0' },
    { id: 3, kind: 'termo', value: ' ... ' },
    { id: 4, kind: 'processo', value: '123' },
    { id: 5, kind: 'bogus' as 'termo', value: 'x' },
    { id: 6, kind: 'termo', value: 'ok' },
  ]);
  assert.deepEqual(m.rejected.map((r) => r.id).sort(), [1, 2, 3, 4, 5]);
  assert.equal(m.stats.termos, 1);
  assert.deepEqual(m.match(pub('ok XX123 RS0 123 x')), [6]);
});

test('matcher: 100,000 OABs + 100,000 terms build once and match', () => {
  const patterns: MatchPattern[] = [];
  const ufs = ['RS', 'SP', 'RJ', 'MG', 'PR', 'SC', 'BA', 'DF'];
  const syl = ['ba', 'ce', 'di', 'fo', 'gu', 'la', 'me', 'ni', 'po', 'ru', 'sa', 'te', 'vi', 'xo', 'zã', 'lé'];
  for (let i = 0; i < 100_000; i++) {
    const made = syl[i % 16] + syl[(i >> 4) % 16] + syl[(i >> 8) % 16] + syl[(i >> 12) % 16] + syl[(i >> 16) % 16];
    patterns.push({ id: i, kind: 'termo', value: `Nome de Teste ${made}` });
    patterns.push({ id: 100_000 + i, kind: 'oab', value: `${ufs[i % 8]}${10_000 + i}` });
  }
  // Its build time is measured by the bench (bench/matching.ts), not here.
  const m = PublicationMatcher.build(patterns);
  assert.equal(m.stats.oab + m.stats.termos, 200_000);
  const name = patterns[2 * 4321].value.toUpperCase();
  assert.deepEqual(sorted(m.match(pub(`<td>ADVOGADO(A)</td><td>: ${name} (OAB ${ufs[9876 % 8]}0${10_000 + 9876})</td>`))), [4321, 109_876]);
});
