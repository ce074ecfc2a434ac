/**
 * The splitter on the real layout: tse-1.md (DJE/TRE-PA 2026 nº 223, an excerpt of its text layer;
 * fixtures/, provenance beside it; official gazette text, nothing replaced) read field by field as a
 * person reads it, and the second OAB notation of the same matéria (README §7: the body repeats the
 * parties as `ADVOGADO(A): NAME - OAB/PA26585-A`, a part the excerpt cuts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ElectoralEditionRecord } from '../../platform/ports/electoral.ts';
import { splitMaterias, type PdfLine } from './split.ts';
import { tse1Lines } from './testing.ts';

const EDITION: ElectoralEditionRecord = { tribunal: 'TRE-PA', numero: 223, data: '2026-10-01', extra: false, raw: null };
const view = (lines: PdfLine[]) =>
  splitMaterias(EDITION, lines).map((m) => ({
    numeroCnj: m.numeroCnj,
    classe: m.classe,
    publicacao: m.publicacao,
    partes: m.partes,
    advogados: m.advogados.map((a) => [a.nome, a.oab && `${a.oab.uf}${a.oab.numero}`]),
  }));

test('tse-1.md: every matéria with its number, class, publication day, parties and OABs; the masthead, sumário and the indexes at the end are none', () => {
  assert.deepEqual(view(tse1Lines()), [
    {
      numeroCnj: '06002703920246140000',
      classe: 'CUMPRIMENTO DE SENTENÇA (156)',
      publicacao: '2026-10-02',
      partes: [
        { papel: 'INTERESSADO(A)', nome: 'ANA PAULA BARRETO ALVES' },
        { papel: 'INTERESSADO(A)', nome: 'EDER MAURO CARDOSO BARRA' },
      ],
      advogados: [
        ['ADARA KARYNE CARNEIRO CORTES', 'PA30865'],
        ['JOLINDA PRATA VASCONCELOS', 'PA18760'],
      ],
    },
    { numeroCnj: '06002712420246140000', classe: 'CUMPRIMENTO DE SENTENÇA (156)', publicacao: '2026-10-02', partes: [], advogados: [] },
  ]);
  const [first] = splitMaterias(EDITION, tse1Lines());
  assert.deepEqual([first.id, first.data, first.ordem], ['TRE-PA:223:1', '2026-10-01', 1]);
  assert.match(first.texto, /^CUMPRIMENTO DE SENTENÇA\(156\) Nº 0600270-39\.2024\.6\.14\.0000\nPUBLICAÇÃO EM : 02\/10\/2026\n/);
  assert.doesNotMatch(first.texto, /ÍNDICE/, "the indexes are not the last matéria's text");
});

test(
  "both notations of one matéria: the header's (18760/PA) and the body's OAB/PA18760 are one registration, OAB/PA26585-A keeps its letter; parties " +
    'repeated by the body once',
  () => {
    const lines = tse1Lines();
    const end = lines.findIndex((l) => l.text.startsWith('CUMPRIMENTO DE SENTENÇA(156) Nº 0600271'));
    const body = [
      'PODER JUDICIÁRIO',
      'CUMPRIMENTO DE SENTENÇA (156) nº: 0600270-39.2024.6.14.0000.',
      'INTERESSADO(A): EDER MAURO CARDOSO BARRA',
      'ADVOGADO(A): JOLINDA PRATA VASCONCELOS - OAB/PA18760',
      'ADVOGADO(A): NAME - OAB/PA26585-A',
      'FISCAL DA LEI: PROCURADORIA REGIONAL ELEITORAL DO PARÁ',
      'PROCURADORIA: Procuradoria Regional Eleitoral',
      'DECISÃO',
      'Trata-se de cumprimento de sentença.',
    ].map((text) => ({ page: 4, text }));
    const [m] = view([...lines.slice(0, end), ...body]);
    assert.deepEqual(
      m.partes.map((p) => p.nome),
      ['ANA PAULA BARRETO ALVES', 'EDER MAURO CARDOSO BARRA'],
    );
    assert.deepEqual(m.advogados, [
      ['ADARA KARYNE CARNEIRO CORTES', 'PA30865'],
      ['JOLINDA PRATA VASCONCELOS', 'PA18760'],
      ['NAME', 'PA26585A'],
    ]);
  },
);

test(
  'a heading that repeats its number on the PROCESSO line opens one matéria; a PROCESSO line alone (an older layout) opens one; a class wrapped over two ' +
    'lines is read in full from PROCESSO',
  () => {
    const lines = (texts: string[]) => texts.map((text) => ({ page: 1, text }));
    const cnj = '0600300-06.2026.6.14.0000';
    assert.deepEqual(
      view(
        lines([
          'REQUERIMENTO DE REGULARIZAÇÃO DE OMISSÃO DE PRESTAÇÃO DE CONTAS',
          `ELEITORAIS(12633) Nº ${cnj}`,
          'PUBLICAÇÃO EM : 02/10/2026',
          `PROCESSO : ${cnj} REQUERIMENTO DE REGULARIZAÇÃO DE OMISSÃO DE PRESTAÇÃO DE CONTAS ELEITORAIS (Belém - PA)`,
          'REQUERENTE : PARTIDO FICTÍCIO',
          'PROCESSO Nº 0600271-24.2024.6.14.0000',
          'CLASSE: RECURSO ELEITORAL',
          'ADVOGADO: FULANO - OAB/PA 1.234',
        ]),
      ).map((m) => [m.numeroCnj, m.classe, m.partes.length, m.advogados]),
      [
        ['06003000620266140000', 'REQUERIMENTO DE REGULARIZAÇÃO DE OMISSÃO DE PRESTAÇÃO DE CONTAS ELEITORAIS (12633)', 1, []],
        ['06002712420246140000', 'RECURSO ELEITORAL', 0, [['FULANO', 'PA1234']]],
      ],
    );
  },
);
