/**
 * The simulated editions are laid out as the real one (DESIGN.md §5): the text of a simulated PDF,
 * fetched over HTTP, and the real text (tse-1.md, DJE/TRE-PA 2026 nº 223, sources/dje/fixtures) are
 * each read into the same description (`layoutOf`: every line of a known kind as `{kind: its parts}`)
 * and compared by the structural comparator (sandbox/parity.ts): the same kinds of lines (headings,
 * `PUBLICAÇÃO EM`, `PROCESSO :`, both OAB notations, the sumário, the indexes), with the same
 * spellings of dates and numbers. The body's notation `ADVOGADO(A): NAME - OAB/PA26585-A` is cut from
 * the excerpt and quoted by README §7: the reference adds that line. Then the splitter's records of both
 * are compared the same way.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfLines, splitMaterias, type PdfLine } from '../../sources/dje/split.ts';
import { tse1Lines } from '../../sources/dje/testing.ts';
import { shapeOf, structuralDifferences } from '../parity.ts';
import { startTestSandbox, type TestSandbox } from '../testing.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const CNJ = String.raw`(\d{7}-\d{2}\.\d{4}\.6\.\d{2}\.\d{4})`;
const CLASS = String.raw`([A-ZÀ-Ý][A-ZÀ-Ý ]*)\((\d+)\) Nº ${CNJ}`;
/** The kinds of line of the real layout, each with the parts it prints (numbers as numbers, so their spelling counts). */
const KINDS: [string, RegExp, (m: RegExpExecArray) => unknown][] = [
  ['sumário', /^(.+) — (\d+)$/, (m) => ({ unidade: m[1], pagina: Number(m[2]) })],
  ['CLASSE(código) Nº', new RegExp(`^${CLASS}$`), (m) => ({ classe: m[1], codigo: Number(m[2]), numero: m[3] })],
  ['PUBLICAÇÃO EM :', /^PUBLICAÇÃO EM : (.+)$/, (m) => m[1]],
  ['PROCESSO :', new RegExp(`^PROCESSO : ${CNJ} (.+) \\((.+) - ([A-Z]{2})\\)$`), (m) => ({ numero: m[1], classe: m[2], cidade: m[3], uf: m[4] })],
  ['RELATOR :', /^RELATOR : (.+)$/, (m) => m[1]],
  ['FISCAL DA LEI :', /^FISCAL DA LEI : (.+)$/, (m) => m[1]],
  ['ADVOGADO : NOME (n/UF)', /^ADVOGADO : (.+) \((\d+)\/([A-Z]{2})\)$/, (m) => ({ nome: m[1], numero: Number(m[2]), uf: m[3] })],
  [
    'ADVOGADO(A): NOME - OAB/UFn-L',
    /^ADVOGADO\(A\): (.+) - OAB\/([A-Z]{2})(\d+)(?:-([A-Z]))?$/,
    (m) => ({ nome: m[1], uf: m[2], numero: Number(m[3]), letra: m[4] ?? null }),
  ],
  ['PAPEL : NOME', /^([A-ZÀ-Ý][A-ZÀ-Ý()/ ]+) : (.+)$/, (m) => ({ papel: m[1], nome: m[2] })],
  ['ÍNDICE DE', /^ÍNDICE DE (.+)$/, (m) => m[1]],
  ['índice de processos', new RegExp(`^(\\S+) ${CNJ}((?: \\d+)+)$`), (m) => ({ sigla: m[1], numero: m[2], paginas: m[3].trim().split(' ').map(Number) })],
  ['Matérias com publicação em', /^Matérias com publicação em (.+)$/, (m) => m[1]],
  ['índice de datas', new RegExp(`^${CLASS} (\\d+)$`), (m) => ({ classe: m[1], codigo: Number(m[2]), numero: m[3], pagina: Number(m[4]) })],
];

function layoutOf(lines: readonly PdfLine[]) {
  const linhas: Record<string, unknown>[] = [];
  for (const { text } of lines) {
    for (const [kind, re, parts] of KINDS) {
      const m = re.exec(text);
      if (m) {
        linhas.push({ [kind]: parts(m) });
        break;
      }
    }
  }
  return { linhas };
}

const kinds = (layout: { linhas: Record<string, unknown>[] }) => layout.linhas.map((l) => Object.keys(l)[0]);
const REAL = shapeOf(layoutOf(tse1Lines()), layoutOf([{ page: 4, text: 'ADVOGADO(A): NAME - OAB/PA26585-A' }]));
/** What one excerpt cannot show: registrations without a letter print none (`OAB/AP1488` in the same edition). */
const LETTERLESS = { alsoAllowed: { 'linhas[].ADVOGADO(A): NOME - OAB/UFn-L.letra': ['null' as const] } };

async function simulatedLines(tribunal: string): Promise<PdfLine[]> {
  const index = (await (await fetch(`${sb.djeUrl}/dje-consulta/rest/diario/dia?dia=09/03/2026&trib=${tribunal}`)).json()) as Record<
    string,
    { edicao: number }[]
  >;
  const [{ edicao }] = index['2026-03-09'];
  const pdf = await fetch(`${sb.djeUrl}/dje-consulta/rest/diario/caderno?edicao=${edicao}&trib=${tribunal}`);
  return pdfLines(new Uint8Array(await pdf.arrayBuffer()));
}

test(
  'a simulated edition has the real layout: the same kinds of line, dates as dd/mm/aaaa, both OAB notations, the ' +
    'sumário and the four indexes in the real order',
  async () => {
    const lines = [...(await simulatedLines('TRE-PA')), ...(await simulatedLines('TSE'))];
    const sim = layoutOf(lines);
    assert.deepEqual(structuralDifferences(REAL, sim, LETTERLESS), []);
    const real = kinds(layoutOf(tse1Lines()));
    const opening = (k: string[]) => k.slice(k.indexOf('CLASSE(código) Nº'), k.indexOf('CLASSE(código) Nº') + 4);
    assert.deepEqual(opening(kinds(sim)), opening(real), 'a matéria opens as the real one: heading, PUBLICAÇÃO EM, PROCESSO, RELATOR');
    const indexes = (l: { linhas: Record<string, unknown>[] }) => l.linhas.flatMap((x) => (x['ÍNDICE DE'] ? [x['ÍNDICE DE']] : []));
    const summary = (l: { linhas: Record<string, unknown>[] }) =>
      l.linhas.flatMap((x: any) => (x.sumário?.unidade.startsWith('Índice') ? [x.sumário.unidade] : []));
    assert.deepEqual(summary(sim).slice(0, 4), summary(layoutOf(tse1Lines())), 'the sumário names the four indexes in the real order');
    assert.deepEqual(indexes(sim).slice(0, 4), ['ADVOGADOS', 'PARTES', 'PROCESSOS', 'DATAS DE PUBLICAÇÃO']);
  },
);

test('the splitter reads both alike: the records of a simulated edition have the structure of those of tse-1.md', async () => {
  const edition = { tribunal: 'TRE-PA', numero: 1, data: '2026-03-09', extra: false, raw: null };
  const real = splitMaterias({ ...edition, data: '2026-10-01' }, tse1Lines());
  const sim = splitMaterias(edition, await simulatedLines('TRE-PA'));
  assert.ok(sim.length >= 3);
  // tse-1.md's two lawyers both print an OAB; a lawyer without one is read with `oab: null`.
  assert.deepEqual(structuralDifferences(real, sim, { alsoAllowed: { '[].advogados[].oab': ['null'] } }), []);
});

test('the comparison catches a simulator that drifts: PUBLICAÇÃO EM in ISO, OABs printed OAB/SP 123.456', async () => {
  const lines = await simulatedLines('TRE-PA');
  const iso = lines.map((l) => ({ ...l, text: l.text.replace(/^PUBLICAÇÃO EM : (\d{2})\/(\d{2})\/(\d{4})$/, 'PUBLICAÇÃO EM : $3-$2-$1') }));
  assert.ok(structuralDifferences(REAL, layoutOf(iso), LETTERLESS).some((d) => /PUBLICAÇÃO EM :: the simulator sends string:iso-date/.test(d)));
  const old = lines.map((l) => ({ ...l, text: l.text.replace(/\((\d+)\/([A-Z]{2})\)$/, '- OAB/$2 $1') }));
  assert.ok(
    structuralDifferences(REAL, layoutOf(old), LETTERLESS).some((d) =>
      /ADVOGADO : NOME \(n\/UF\): the capture has object, the simulator never sends it/.test(d),
    ),
  );
});
