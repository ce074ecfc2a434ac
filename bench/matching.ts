/**
 * Publication matching bench: a simulated DJEN day against 100,000 OAB monitors and 100,000 name
 * terms, our matcher (src/platform/matching) next to GNU grep over the very same bytes.
 *
 * - Data (seeded, fictitious; names from src/sandbox/data/names.ts plus made-up surnames so that
 *   100,000 distinct ones exist): N communications (default 200,000) in the shapes DJEN serves —
 *   eproc HTML with the header table of the real sample ("ADVOGADO(A) : NOME (OAB RS062492)"), PJe
 *   HTML, e-SAJ plain text ("ADV: NOME (OAB 123456/SP)"), TJRJ plain text with "\n\r", and
 *   "consulte os autos" stubs — with OABs in mixed spellings, some entity-encoded accents, dates,
 *   CNJ numbers, jurisprudence (REsp 1.234.567/SP), highways (SP-348). Some parties, lawyers and
 *   OABs are monitored ones; what was planted where is recorded, to check the matcher finds it.
 * - texts.txt: one communication per line (its newlines replaced by spaces — the matcher sees the
 *   same string); patterns.txt: the 100,000 terms as monitored + the 100,000 OABs spelled the way
 *   they appear most in the texts (`OAB RS062492`).
 * - grep: `LC_ALL=C.UTF-8 grep -F -i -c -f patterns.txt texts.txt` with a timeout (GNU grep falls
 *   back to its regex engine for -i with non-ASCII patterns in a UTF-8 locale: expect it killed);
 *   then the same on the first lines of texts.txt (BENCH_MATCH_GREP_SAMPLE_BYTES) for a rate, and
 *   `LC_ALL=C grep -F -i -c` (bytes; ASCII-only case folding), grep's fastest mode. Each is also run
 *   on an empty file (best of two): that time (compiling 200,000 patterns) is subtracted for the
 *   scan rate, unless it is more than 80% of the run (then the scan rate is the wall rate).
 * - ours: `PublicationMatcher.build` (time, heap/RSS growth, typed-array bytes), then `match` over
 *   every communication (text + structured lawyers/addressees/number), MB of UTF-8 text per second.
 *   Ratio = ours ÷ grep's scan rate.
 *
 * Env: BENCH_MATCH_COMMUNICATIONS (default 200000), BENCH_MATCH_GREP_TIMEOUT_S (default 120),
 * BENCH_MATCH_GREP_SAMPLE_BYTES (default 65536). Temp files are removed at the end.
 * Standalone: node bench/matching.ts
 */
import { execSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { cnjCheckDigits } from '../src/platform/identifiers/cnj.ts';
import { UFS } from '../src/platform/identifiers/uf.ts';
import { extractCnjMentions, extractOabMentions, PublicationMatcher, type MatchablePublication, type MatchPattern } from '../src/platform/matching/index.ts';
import { companyName, personName } from '../src/sandbox/data/names.ts';
import { Random } from '../src/sandbox/data/prng.ts';

export const MATCHING_TARGET_RATIO = 1.0;

export interface MatchingBenchOptions {
  communications?: number;
  oabMonitors?: number;
  termMonitors?: number;
  grepTimeoutS?: number;
  grepSampleBytes?: number;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
}

export interface GrepRun {
  command: string;
  bytes: number;
  lines: number;
  seconds: number;
  killed: boolean;
  /** Lines with a match (`-c`), null when killed. */
  count: number | null;
  /** Wall time for the same patterns over an empty file: building the matcher. */
  compileSeconds: number;
  /** bytes / wall seconds; a bound (bytes / timeout) when killed. */
  mbPerS: number;
  /** bytes / (wall − compile) seconds. */
  scanMbPerS: number;
}

export interface MatchingBenchResult {
  communications: number;
  textBytes: number;
  generateSeconds: number;
  patterns: { termos: number; oab: number; rejected: number };
  grepUtf8: GrepRun;
  /** When the full UTF-8 run was killed: the same command over the first lines. */
  grepUtf8Sample: GrepRun | null;
  grepC: GrepRun;
  ours: {
    buildSeconds: number;
    /** A second build, JIT warm. */
    rebuildSeconds: number;
    /** Heap + array buffers a (second) build keeps, after a GC. */
    retainedMb: number;
    /** RSS growth over the build (includes the build's garbage the GC has not returned to the OS). */
    buildRssMb: number;
    /** Its typed arrays alone. */
    matcherMb: number;
    states: number;
    words: number;
    seconds: number;
    mbPerS: number;
    /** Communications with at least one id (text and structured fields). */
    communicationsMatched: number;
    idsReported: number;
    /** Lines (communications) with a match in the text alone: the number comparable to grep -c. */
    textLinesMatched: number;
    textOnlySeconds: number;
    /** Planted monitors `match` did not report (must be 0). */
    plantedMissed: number;
    plantedTotal: number;
    /** Reported ids that were not planted (a monitored name inside a longer one, etc.). */
    unplanted: number;
  };
  extraction: { sample: number; oabPrinted: number; oabMissed: number; oabExtra: number; cnjPrinted: number; cnjMissed: number; cnjExtra: number };
  /** 1-minute load average at the start and the end (other processes skew every number). */
  load: { start: number; end: number };
  /** ours ÷ the UTF-8 grep's scan rate (from the sample when the full run was killed). */
  ratio: number;
  ratioVsC: number;
}

// ---------------------------------------------------------------- data

const SYLLABLES = [
  'ba',
  'be',
  'bi',
  'bo',
  'ca',
  'ce',
  'ci',
  'co',
  'da',
  'de',
  'di',
  'do',
  'fa',
  'fe',
  'fi',
  'ga',
  'go',
  'gu',
  'la',
  'le',
  'li',
  'lo',
  'lu',
  'ma',
  'me',
  'mi',
  'mo',
  'na',
  'ne',
  'no',
  'pa',
  'pe',
  'pi',
  'ra',
  're',
  'ri',
  'ro',
  'sa',
  'se',
  'si',
  'so',
  'ta',
  'te',
  'ti',
  'to',
  'va',
  've',
  'vi',
  'za',
  'ção',
  'nho',
  'lha',
  'ré',
  'lú',
  'tó',
  'cân',
  'guê',
  'qui',
  'xa',
  'bra',
  'cri',
  'tro',
];

function madeUpSurname(rng: Random): string {
  let s = '';
  const n = rng.int(2, 3);
  for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
  return s[0].toUpperCase() + s.slice(1);
}

function fullName(rng: Random): string {
  return `${personName(rng)} ${madeUpSurname(rng)}`;
}

const CLASSES = [
  'APELAÇÃO CÍVEL',
  'AGRAVO DE INSTRUMENTO',
  'PROCEDIMENTO COMUM CÍVEL',
  'EXECUÇÃO FISCAL',
  'RECLAMAÇÃO TRABALHISTA',
  'CUMPRIMENTO DE SENTENÇA',
  'MANDADO DE SEGURANÇA CÍVEL',
  'AÇÃO PENAL - PROCEDIMENTO ORDINÁRIO',
];
const ACTS = ['ATO ORDINATÓRIO', 'DESPACHO/DECISÃO', 'SENTENÇA', 'INTIMAÇÃO', 'ACÓRDÃO'];
const CITIES = ['Porto Alegre', 'São Paulo', 'Florianópolis', 'Curitiba', 'Belo Horizonte', 'Rio de Janeiro', 'Goiânia', 'Maceió', 'Cuiabá', 'Teresina'];

interface Lawyer {
  nome: string;
  uf: string;
  numero: number;
  suffix: string;
  monitor: number;
}

/** OAB spellings courts print; weights make the eproc one (`OAB RS062492`, the patterns file's) the most common. */
const SPELLINGS: { weight: number; value: (l: Lawyer) => string }[] = [
  { weight: 45, value: (l) => `OAB ${l.uf}${String(l.numero).padStart(6, '0')}${l.suffix}` },
  { weight: 12, value: (l) => `OAB/${l.uf} ${thousands(l.numero)}${l.suffix ? `-${l.suffix}` : ''}` },
  { weight: 10, value: (l) => `OAB ${l.numero}${l.suffix}/${l.uf}` },
  { weight: 8, value: (l) => `${l.numero}${l.suffix ? `-${l.suffix}` : ''}/${l.uf}` },
  { weight: 5, value: (l) => (l.suffix ? `${thousands(l.numero)}${l.suffix}/${l.uf}` : `${thousands(l.numero)}-${l.uf}`) },
  { weight: 5, value: (l) => `${l.uf}-${l.numero}${l.suffix}` },
  { weight: 5, value: (l) => `OAB/${l.uf} nº ${thousands(l.numero)}${l.suffix}` },
  { weight: 5, value: (l) => `${l.uf}${String(l.numero).padStart(6, '0')}${l.suffix}` },
  { weight: 5, value: (l) => `OAB/${l.uf}-${l.numero}${l.suffix}` },
];

function thousands(n: number): string {
  return n.toLocaleString('pt-BR');
}

function canonical(l: { uf: string; numero: number; suffix: string }): string {
  return `${l.uf}${l.numero}${l.suffix}`;
}

const ENTITY_OF: Record<string, string> = {
  á: '&aacute;',
  é: '&eacute;',
  í: '&iacute;',
  ó: '&oacute;',
  ú: '&uacute;',
  â: '&acirc;',
  ê: '&ecirc;',
  ô: '&ocirc;',
  ã: '&atilde;',
  õ: '&otilde;',
  ç: '&ccedil;',
  Á: '&Aacute;',
  É: '&Eacute;',
  Í: '&Iacute;',
  Ó: '&Oacute;',
  Ú: '&Uacute;',
  Â: '&Acirc;',
  Ê: '&Ecirc;',
  Ô: '&Ocirc;',
  Ã: '&Atilde;',
  Õ: '&Otilde;',
  Ç: '&#199;',
};
const ACCENTED = /[áéíóúâêôãõçÁÉÍÓÚÂÊÔÃÕÇ]/g;

function entityEncode(text: string): string {
  return text.replace(ACCENTED, (c) => ENTITY_OF[c]);
}

interface Generated {
  pubs: MatchablePublication[];
  /** Ids each communication must report (monitored names/OABs planted in its text or fields). */
  expected: Int32Array[];
  /** OABs (canonical) and CNJ numbers printed in each text, for the extraction check. */
  printedOabs: string[][];
  printedCnjs: string[][];
  patterns: MatchPattern[];
  termValues: string[];
  oabPatternLines: string[];
}

function maskCnj(d: string): string {
  return `${d.slice(0, 7)}-${d.slice(7, 9)}.${d.slice(9, 13)}.${d.slice(13, 14)}.${d.slice(14, 16)}.${d.slice(16)}`;
}

export function simulateDjenDay(communications: number, termCount: number, oabCount: number): Generated {
  const rng = new Random('bench-matching', 1);
  // Monitored names (ids 1..termCount): people, plus a few companies.
  const termValues: string[] = [];
  const termIdOf = new Map<string, number>();
  const companies = Math.min(1000, Math.floor(termCount / 100));
  for (let guard = 0; termValues.length < termCount && guard < termCount * 20; guard++) {
    const name = termValues.length < companies ? companyName(rng) : fullName(rng);
    if (termIdOf.has(name)) continue;
    termValues.push(name);
    termIdOf.set(name, termValues.length);
  }
  // Monitored OABs (ids termCount+1..): random UF and number, 2% with a suffix letter.
  const oabMonitors: Lawyer[] = [];
  const oabIdOf = new Map<string, number>();
  while (oabMonitors.length < oabCount) {
    const l: Lawyer = {
      nome: '',
      uf: rng.pick(UFS),
      numero: rng.int(1_000, 999_999),
      suffix: rng.chance(0.02) ? rng.pick(['A', 'B', 'E', 'N']) : '',
      monitor: 0,
    };
    const key = canonical(l);
    if (oabIdOf.has(key)) continue;
    l.monitor = termCount + oabMonitors.length + 1;
    oabIdOf.set(key, l.monitor);
    oabMonitors.push(l);
  }
  const patterns: MatchPattern[] = [
    ...termValues.map((value, i) => ({ id: i + 1, kind: 'termo' as const, value })),
    ...oabMonitors.map((l) => ({ id: l.monitor, kind: 'oab' as const, value: canonical(l) })),
  ];
  const oabPatternLines = oabMonitors.map((l) => `OAB ${l.uf}${String(l.numero).padStart(6, '0')}${l.suffix}`);

  const otherName = (): string => {
    for (;;) {
      const n = fullName(rng);
      if (!termIdOf.has(n)) return n;
    }
  };
  const party = (): { nome: string; id: number } => {
    if (rng.chance(0.04)) {
      const t = rng.int(companies, termValues.length - 1);
      return { nome: termValues[t], id: t + 1 };
    }
    if (rng.chance(0.1)) {
      const nome = companyName(rng);
      return { nome, id: termIdOf.get(nome) ?? 0 };
    }
    return { nome: otherName(), id: 0 };
  };
  const lawyer = (): Lawyer => {
    const nome = rng.chance(0.02) ? termValues[rng.int(companies, termValues.length - 1)] : otherName();
    if (rng.chance(0.05)) return { ...rng.pick(oabMonitors), nome };
    for (;;) {
      const l: Lawyer = { nome, uf: rng.pick(UFS), numero: rng.int(1_000, 999_999), suffix: rng.chance(0.02) ? 'A' : '', monitor: 0 };
      if (!oabIdOf.has(canonical(l))) return l;
    }
  };
  const spell = (l: Lawyer): string => rng.weighted(SPELLINGS.map((s) => ({ weight: s.weight, value: s.value })))(l);
  const cnj = (): string => {
    const seq = rng.digits(7);
    const year = String(rng.int(2015, 2026));
    const j = rng.pick(['8', '4', '5']);
    const tr = String(rng.int(1, 27)).padStart(2, '0');
    const origin = rng.digits(4);
    return `${seq}${cnjCheckDigits(seq, year, j, tr, origin)}${year}${j}${tr}${origin}`;
  };
  const date = () => `${String(rng.int(1, 28)).padStart(2, '0')}/${String(rng.int(1, 12)).padStart(2, '0')}/${rng.int(2020, 2026)}`;
  const money = () => `${thousands(rng.int(100, 999_999))},${String(rng.int(0, 99)).padStart(2, '0')}`;

  const pubs: MatchablePublication[] = [];
  const expected: Int32Array[] = [];
  const printedOabs: string[][] = [];
  const printedCnjs: string[][] = [];

  for (let c = 0; c < communications; c++) {
    const numero = cnj();
    const masked = maskCnj(numero);
    const uf = rng.pick(UFS);
    const parties = Array.from({ length: rng.int(1, 4) }, party);
    const lawyers = Array.from({ length: rng.int(1, 3) }, lawyer);
    const judge = otherName();
    const ids = new Set<number>();
    const oabsPrinted = new Set<string>();
    const cnjs = new Set<string>();
    for (const p of parties) if (p.id) ids.add(p.id);
    for (const l of lawyers) {
      if (l.monitor) ids.add(l.monitor);
      const t = termIdOf.get(l.nome);
      if (t) ids.add(t);
    }
    const printOab = (l: Lawyer): string => {
      oabsPrinted.add(canonical(l));
      if (l.monitor) ids.add(l.monitor);
      return spell(l);
    };
    const mentionName = (name: string): string => {
      const t = termIdOf.get(name);
      if (t) ids.add(t);
      return name;
    };
    const second = rng.chance(0.2) ? cnj() : null;
    const paragraphs: string[] = [];
    const nParagraphs = rng.int(2, 9);
    for (let k = 0; k < nParagraphs; k++) {
      const autor = parties[0].nome;
      const reu = parties[parties.length - 1].nome;
      switch (rng.int(0, 13)) {
        case 0:
          paragraphs.push(
            `Vistos. Trata-se de ${rng.pick(CLASSES).toLowerCase()} ajuizada por ${mentionName(autor)} em face de ${mentionName(reu)}, na qual se pretende a ` +
              `condenação da parte ré ao pagamento de R$ ${money()}, acrescidos de juros e correção monetária.`,
          );
          break;
        case 1:
          paragraphs.push(
            `Intime-se a parte autora para, no prazo de 15 (quinze) dias, manifestar-se sobre a contestação e os documentos juntados no ` +
              `evento ${rng.int(1, 200)}, sob pena de preclusão.`,
          );
          break;
        case 2:
          paragraphs.push(`Considerando o trânsito em julgado certificado em ${date()}, arquivem-se os autos com as cautelas de praxe.`);
          break;
        case 3:
          paragraphs.push('Defiro o pedido de gratuidade da justiça, nos termos do art. 98 do Código de Processo Civil (Lei nº 13.105/2015).');
          break;
        case 4:
          paragraphs.push(
            `Cite-se ${mentionName(reu)} para, querendo, apresentar resposta no prazo legal, advertindo-se de que a ausência de contestação implicará ` +
              `revelia (art. 344 do CPC).`,
          );
          break;
        case 5: {
          const l = rng.pick(lawyers);
          paragraphs.push(
            `Fica intimado(a) o(a) advogado(a) ${mentionName(l.nome)}, inscrito(a) na OAB/${l.uf} sob o ` +
              `nº ${thousands(l.numero)}${l.suffix ? `-${l.suffix}` : ''}, para ciência do despacho ` +
              `proferido nos autos do processo nº ${masked}.`,
          );
          oabsPrinted.add(canonical(l));
          if (l.monitor) ids.add(l.monitor);
          cnjs.add(numero);
          break;
        }
        case 6:
          paragraphs.push(
            `Nos termos do entendimento firmado pelo Superior Tribunal de Justiça no REsp ${thousands(rng.int(1_000_000, 2_100_000))}/${rng.pick(UFS)} ` +
              `(Tema ${rng.int(100, 1300)}), a tese aplica-se aos contratos celebrados após a vigência da lei.`,
          );
          break;
        case 7:
          paragraphs.push(
            `Designo audiência de conciliação para o dia ${date()}, às ${rng.int(9, 17)}h${rng.pick(['00', '30'])}, a realizar-se por videoconferência.`,
          );
          break;
        case 8:
          paragraphs.push(`Expeça-se alvará em favor de ${mentionName(autor)} para levantamento do depósito judicial no valor de R$ ${money()}.`);
          break;
        case 9:
          if (second) {
            paragraphs.push(`Apensem-se aos autos nº ${maskCnj(second)}, para julgamento conjunto, nos termos do art. 55, § 1º, do CPC.`);
            cnjs.add(second);
          }
          break;
        case 10:
          paragraphs.push(
            `O acidente ocorreu na rodovia ${rng.pick(['SP', 'SC', 'RS', 'PR', 'MG'])}-${String(rng.int(1, 480)).padStart(3, '0')}, km ${rng.int(1, 400)}, ` +
              `conforme boletim de ocorrência juntado aos autos.`,
          );
          break;
        case 11:
          paragraphs.push(
            'Ante o exposto, JULGO PROCEDENTE o pedido, com resolução do mérito, nos termos do art. 487, I, do CPC. Condeno a parte ré ao pagamento das ' +
              'custas e dos honorários advocatícios, que fixo em 10% sobre o valor da condenação.',
          );
          break;
        case 12:
          paragraphs.push(`Publique-se. Registre-se. Intimem-se. ${rng.pick(CITIES)}/${uf}, ${date()}.`);
          break;
        default:
          paragraphs.push(
            `Certifico que, em cumprimento ao despacho do evento ${rng.int(1, 200)}, foram expedidas as intimações ` +
              `eletrônicas às partes e aos seus procuradores.`,
          );
          break;
      }
    }
    const entities = rng.chance(0.25);
    const body = (p: string) => (entities ? entityEncode(p) : p);
    let texto: string;
    const style = rng.weighted([
      { weight: 35, value: 'eproc' },
      { weight: 30, value: 'pje' },
      { weight: 18, value: 'esaj' },
      { weight: 9, value: 'tjrj' },
      { weight: 8, value: 'stub' },
    ]);
    const classe = rng.pick(CLASSES);
    if (style === 'eproc') {
      cnjs.add(numero);
      const rows = [`<tr><td>RELATOR</td><td>: ${judge.toUpperCase()}</td></tr>`];
      parties.forEach((p, k) => {
        rows.push(`<tr><td>${k === 0 ? 'APELANTE' : 'APELADO'}</td><td>: ${mentionName(p.nome).toUpperCase()}${k === 0 ? ' (AUTOR)' : ''}</td></tr>`);
        if (k === 0 || k === parties.length - 1) {
          for (const l of lawyers.slice(k === 0 ? 0 : Math.ceil(lawyers.length / 2), k === 0 ? Math.ceil(lawyers.length / 2) : lawyers.length)) {
            rows.push(`<tr><td>ADVOGADO(A)</td><td>: ${mentionName(l.nome).toUpperCase()}${rng.chance(0.9) ? ` (${printOab(l)})` : ''}</td></tr>`);
          }
        }
      });
      texto =
        '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><html lang="pt-br"><head><meta http-equiv="Pragma" ' +
        'content="no-cache" /><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"/></head>' +
        '<style>body{ padding: 10px; font-family: Times New Roman; font-size:13pt }; #divHeader{ line-height:25px; margin-bottom:30px }; #divBody{ ' +
        'max-width:90%; text-align:justify }</style>' +
        `<body><div id="divHeader"><b>${classe} Nº ${masked}/${uf} (originário: processo nº ${numero}/${uf})<table ` +
        `border="0">${rows.join('')}</table></b></div>` +
        `<div id="divBody"><center><p>${rng.pick(ACTS)}</p></center><br/>\n<p>Intimação realizada no sistema ` +
        `eproc.</p>${paragraphs.map((p) => `<p>${body(p)}</p>`).join('\n')}</div></body></html>`;
    } else if (style === 'pje') {
      cnjs.add(numero);
      const lines = [
        `<p style="text-align: center;"><strong>PODER JUDICIÁRIO</strong></p>`,
        `<p><strong>PROCESSO Nº ${masked}</strong></p>`,
        `<p>CLASSE: ${classe}</p>`,
      ];
      parties.forEach((p, k) => {
        lines.push(`<p>${k === 0 ? 'AUTOR' : 'RÉU'}: ${mentionName(p.nome).toUpperCase()}</p>`);
        if (k === 0) for (const l of lawyers) lines.push(`<p>Advogado(s) do reclamante: ${mentionName(l.nome).toUpperCase()} - ${printOab(l)}</p>`);
      });
      lines.push(`<p>&nbsp;</p><p><strong>${rng.pick(ACTS)}</strong></p>`);
      for (const p of paragraphs) lines.push(`<p style="text-align: justify;">${body(p)}</p>`);
      texto = lines.join('\r\n');
    } else if (style === 'esaj') {
      cnjs.add(numero);
      const advs = lawyers.map((l) => `${mentionName(l.nome).toUpperCase()} (${printOab(l)})`).join(', ');
      texto =
        `Processo ${masked} - ${classe.toLowerCase()} - ${mentionName(parties[0].nome)} - ${mentionName(parties[parties.length - 1].nome)} ` +
        `- ${paragraphs.map(body).join(' ')} - ADV: ${advs}`;
    } else if (style === 'tjrj') {
      cnjs.add(numero);
      const advs = lawyers.map((l) => `${mentionName(l.nome).toUpperCase()} (${printOab(l)})`).join('\n\r');
      const autor = mentionName(parties[0].nome).toUpperCase();
      const reu = mentionName(parties[parties.length - 1].nome).toUpperCase();
      texto = `PROCESSO: ${masked}\n\rAUTOR: ${autor}\n\rADVOGADO: ${advs}\n\rRÉU: ${reu}\n\r${paragraphs.join('\n\r')}`;
    } else {
      // Only the structured fields name anyone (the planted names are expected through them).
      oabsPrinted.clear();
      cnjs.clear();
      texto =
        `<p align="center" >Processo ${parties[0].nome.toUpperCase()}</p><br/><p align="center" >Para visualização do ` +
        `documento, consulte os autos digitais</p>`;
    }
    texto = texto.replace(/[\r\n]+/g, ' ');
    pubs.push({
      texto,
      advogados: lawyers.map((l) => ({ nome: l.nome, oab: { uf: l.uf, numero: `${l.numero}${l.suffix}` } })),
      destinatarios: parties.map((p) => ({ nome: p.nome })),
      numeroCnj: numero,
    });
    expected.push(Int32Array.from(ids));
    printedOabs.push([...oabsPrinted]);
    printedCnjs.push([...cnjs]);
  }
  return { pubs, expected, printedOabs, printedCnjs, patterns, termValues, oabPatternLines };
}

// ---------------------------------------------------------------- grep

function runGrep(
  locale: string,
  patternsFile: string,
  textsFile: string,
  bytes: number,
  lines: number,
  timeoutS: number,
  compileSeconds: number,
): Promise<GrepRun> {
  const args = ['-F', '-i', '-c', '-f', patternsFile, textsFile];
  const command = `LC_ALL=${locale} grep ${args.join(' ')}`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('grep', args, { env: { ...process.env, LC_ALL: locale }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killed = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutS * 1000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      if (!killed && code !== 0 && code !== 1) {
        reject(new Error(`${command}: exit ${code}: ${err.trim()}`));
        return;
      }
      const mbPerS = bytes / 1e6 / seconds;
      // The compile time is measured apart (an empty input): when it is most of the run, the
      // difference is noise, and the scan rate falls back to the wall rate.
      const scan = seconds - compileSeconds >= 0.2 * seconds ? seconds - compileSeconds : seconds;
      resolve({ command, bytes, lines, seconds, killed, count: killed ? null : Number(out.trim()), compileSeconds, mbPerS, scanMbPerS: bytes / 1e6 / scan });
    });
  });
}

/** grep's time over an empty input (building its matcher for the patterns): the best of two runs. */
async function grepCompileSeconds(locale: string, patternsFile: string, emptyFile: string, timeoutS: number): Promise<number> {
  const first = await runGrep(locale, patternsFile, emptyFile, 0, 0, timeoutS, 0);
  const second = await runGrep(locale, patternsFile, emptyFile, 0, 0, timeoutS, 0);
  return Math.min(first.seconds, second.seconds);
}

// ---------------------------------------------------------------- ours

function gcFunction(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** A full GC, a pause (array buffers are freed by a background sweeper), and another. */
async function settle(gc: () => void): Promise<void> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
}

function memory(): { heap: number; rss: number } {
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.arrayBuffers, rss: m.rss };
}

// ---------------------------------------------------------------- main

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

const mb = (bytes: number) => bytes / 1e6;

/** The settings the environment gives (BENCH_MATCH_*), for callers that budget time (bench/run.ts's watchdog). */
export function matchingBenchSettings(): { communications: number; grepTimeoutS: number; sampleBytes: number; budgetS: number } {
  const communications = intEnv('BENCH_MATCH_COMMUNICATIONS', 200_000);
  const grepTimeoutS = intEnv('BENCH_MATCH_GREP_TIMEOUT_S', 120);
  const sampleBytes = intEnv('BENCH_MATCH_GREP_SAMPLE_BYTES', 65_536);
  // Two grep runs may each reach the timeout (the full UTF-8 one, then its sample); the rest (data,
  // byte-mode grep, our passes) takes about 30 s per 100,000 communications on this machine's size.
  const budgetS = 2 * grepTimeoutS + 30 + Math.ceil((communications / 100_000) * 30);
  return { communications, grepTimeoutS, sampleBytes, budgetS };
}

export async function runMatchingBench(opts: MatchingBenchOptions = {}): Promise<MatchingBenchResult> {
  const settings = matchingBenchSettings();
  const communications = opts.communications ?? settings.communications;
  const termCount = opts.termMonitors ?? 100_000;
  const oabCount = opts.oabMonitors ?? 100_000;
  const grepTimeoutS = opts.grepTimeoutS ?? settings.grepTimeoutS;
  const sampleBytes = opts.grepSampleBytes ?? settings.sampleBytes;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const gc = gcFunction();
  const loadStart = os.loadavg()[0];

  log(
    `matching bench: generating ${communications.toLocaleString('en')} communications, ${termCount.toLocaleString('en')} ` +
      `terms, ${oabCount.toLocaleString('en')} OABs ...`,
  );
  let started = performance.now();
  const data = simulateDjenDay(communications, termCount, oabCount);
  const generateSeconds = (performance.now() - started) / 1000;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-bench-matching-'));
  // Also on process.exit (bench/run.ts's watchdog); a signal's default action skips both.
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  try {
    const textsFile = path.join(dir, 'texts.txt');
    const patternsFile = path.join(dir, 'patterns.txt');
    const sampleFile = path.join(dir, 'texts-sample.txt');
    const emptyFile = path.join(dir, 'empty.txt');
    let textBytes = 0;
    const fd = fs.openSync(textsFile, 'w');
    let sampleLines = 0;
    let sampleSize = 0;
    const sample: string[] = [];
    for (let i = 0; i < data.pubs.length; i += 1000) {
      const chunk = data.pubs
        .slice(i, i + 1000)
        .map((p) => `${p.texto}\n`)
        .join('');
      fs.writeSync(fd, chunk);
    }
    fs.closeSync(fd);
    for (const p of data.pubs) {
      const b = Buffer.byteLength(p.texto);
      textBytes += b;
      if (sampleSize + b + 1 <= sampleBytes || sampleLines === 0) {
        sample.push(p.texto);
        sampleSize += b + 1;
        sampleLines++;
      }
    }
    if (fs.statSync(textsFile).size !== textBytes + data.pubs.length) throw new Error('texts.txt: size differs from the texts');
    fs.writeFileSync(sampleFile, sample.map((t) => `${t}\n`).join(''));
    fs.writeFileSync(patternsFile, [...data.termValues, ...data.oabPatternLines].map((p) => `${p}\n`).join(''));
    fs.writeFileSync(emptyFile, '');
    log(`matching bench: ${mb(textBytes).toFixed(1)} MB of text in ${generateSeconds.toFixed(1)} s; grep (C.UTF-8, timeout ${grepTimeoutS} s) ...`);

    // grep, UTF-8 locale (the command asked for).
    const utf8Compile = await grepCompileSeconds('C.UTF-8', patternsFile, emptyFile, grepTimeoutS);
    const grepUtf8 = await runGrep('C.UTF-8', patternsFile, textsFile, textBytes + data.pubs.length, data.pubs.length, grepTimeoutS, utf8Compile);
    if (grepUtf8.killed) grepUtf8.mbPerS = grepUtf8.scanMbPerS = grepUtf8.bytes / 1e6 / grepTimeoutS;
    let grepUtf8Sample: GrepRun | null = null;
    if (grepUtf8.killed) {
      log(`matching bench: grep C.UTF-8 killed after ${grepTimeoutS} s; the same over the first ${sampleLines} lines (${sampleSize} bytes) ...`);
      grepUtf8Sample = await runGrep('C.UTF-8', patternsFile, sampleFile, sampleSize, sampleLines, grepTimeoutS, utf8Compile);
    }
    log('matching bench: grep (LC_ALL=C) ...');
    const cCompile = await grepCompileSeconds('C', patternsFile, emptyFile, grepTimeoutS);
    const grepC = await runGrep('C', patternsFile, textsFile, textBytes + data.pubs.length, data.pubs.length, grepTimeoutS, cCompile);
    if (grepC.killed) grepC.mbPerS = grepC.scanMbPerS = grepC.bytes / 1e6 / grepTimeoutS;

    // Ours: build, then match every communication.
    log('matching bench: our matcher ...');
    await settle(gc);
    const before = memory();
    started = performance.now();
    const firstRejected = PublicationMatcher.build(data.patterns).rejected.length; // built, then dropped
    const buildSeconds = (performance.now() - started) / 1000;
    const afterFirst = memory();
    // Memory: what a second build retains, from a baseline taken once the first is released (the
    // first build in a process also frees unrelated garbage, which would skew a simple delta).
    await settle(gc);
    const baseline = memory();
    started = performance.now();
    let matcher: PublicationMatcher | null = PublicationMatcher.build(data.patterns);
    const rebuildSeconds = (performance.now() - started) / 1000;
    await settle(gc);
    const withMatcher = memory();
    if (matcher.rejected.length !== firstRejected) throw new Error('two builds of the same patterns differ');
    const stats = matcher.stats;
    const patternCounts = { termos: stats.termos, oab: stats.oab, rejected: matcher.rejected.length };
    const pubs = data.pubs;
    for (let i = 0; i < Math.min(1000, pubs.length); i++) matcher.match(pubs[i]); // warm-up (JIT)
    let results: number[][] | null = new Array(pubs.length);
    started = performance.now();
    for (let i = 0; i < pubs.length; i++) results[i] = matcher.match(pubs[i]);
    const seconds = (performance.now() - started) / 1000;

    let communicationsMatched = 0;
    let idsReported = 0;
    let plantedMissed = 0;
    let plantedTotal = 0;
    let unplanted = 0;
    for (let i = 0; i < pubs.length; i++) {
      const got = results[i];
      if (got.length > 0) communicationsMatched++;
      idsReported += got.length;
      const want = data.expected[i];
      plantedTotal += want.length;
      const gotSet = new Set(got);
      for (const id of want) if (!gotSet.has(id)) plantedMissed++;
      const wantSet = new Set(want);
      for (const id of got) if (!wantSet.has(id)) unplanted++;
    }
    // The text alone (what grep sees), for the line count.
    let textLinesMatched = 0;
    started = performance.now();
    for (const p of pubs) if (matcher.match({ texto: p.texto, advogados: [], destinatarios: [], numeroCnj: null }).length > 0) textLinesMatched++;
    const textOnlySeconds = (performance.now() - started) / 1000;
    results = null;
    matcher = null;

    // Extraction check on a sample: every OAB / CNJ number printed is found, and nothing else.
    const extractionSample = Math.min(pubs.length, 20_000);
    const extraction = { sample: extractionSample, oabPrinted: 0, oabMissed: 0, oabExtra: 0, cnjPrinted: 0, cnjMissed: 0, cnjExtra: 0 };
    for (let i = 0; i < extractionSample; i++) {
      const oabs = new Set(extractOabMentions(pubs[i].texto));
      const printed = new Set(data.printedOabs[i]);
      extraction.oabPrinted += printed.size;
      for (const k of printed) if (!oabs.has(k)) extraction.oabMissed++;
      for (const k of oabs) if (!printed.has(k)) extraction.oabExtra++;
      const cnjs = new Set(extractCnjMentions(pubs[i].texto));
      const printedCnj = new Set(data.printedCnjs[i]);
      extraction.cnjPrinted += printedCnj.size;
      for (const k of printedCnj) if (!cnjs.has(k)) extraction.cnjMissed++;
      for (const k of cnjs) if (!printedCnj.has(k)) extraction.cnjExtra++;
    }

    const oursMbPerS = mb(textBytes) / seconds;
    const grepRate = grepUtf8Sample ? grepUtf8Sample.scanMbPerS : grepUtf8.scanMbPerS;
    const result: MatchingBenchResult = {
      communications: pubs.length,
      textBytes,
      generateSeconds,
      patterns: patternCounts,
      grepUtf8,
      grepUtf8Sample,
      grepC,
      ours: {
        buildSeconds,
        rebuildSeconds,
        retainedMb: mb(withMatcher.heap - baseline.heap),
        buildRssMb: mb(afterFirst.rss - before.rss),
        matcherMb: mb(stats.bytes),
        states: stats.terms.states,
        words: stats.terms.words,
        seconds,
        mbPerS: oursMbPerS,
        communicationsMatched,
        idsReported,
        textLinesMatched,
        textOnlySeconds,
        plantedMissed,
        plantedTotal,
        unplanted,
      },
      extraction,
      load: { start: loadStart, end: os.loadavg()[0] },
      ratio: oursMbPerS / grepRate,
      ratioVsC: oursMbPerS / grepC.scanMbPerS,
    };
    printMatchingReport(result);
    return result;
  } finally {
    removeDir();
    process.off('exit', removeDir);
  }
}

// ---------------------------------------------------------------- output

function grepRow(name: string, g: GrepRun): string[] {
  return [
    name,
    `\`${g.command.replace(/\S*tramita-bench-matching-\w+\//g, '')}\``,
    mb(g.bytes).toFixed(1),
    g.killed ? `> ${g.seconds.toFixed(1)} (killed)` : g.seconds.toFixed(2),
    g.compileSeconds.toFixed(2),
    g.killed ? `< ${g.mbPerS.toFixed(2)}` : g.mbPerS.toFixed(2),
    g.killed ? `< ${g.scanMbPerS.toFixed(2)}` : g.scanMbPerS.toFixed(3),
    g.count === null ? '—' : `${g.count} lines`,
  ];
}

export function printMatchingReport(r: MatchingBenchResult): void {
  const head = ['matcher', 'command', 'MB', 'wall s', 'build s', 'MB/s (wall)', 'MB/s (scan)', 'matched'];
  const rows = [grepRow('GNU grep, UTF-8', r.grepUtf8)];
  if (r.grepUtf8Sample) rows.push(grepRow('GNU grep, UTF-8, first lines', r.grepUtf8Sample));
  rows.push(grepRow('GNU grep, bytes', r.grepC));
  const o = r.ours;
  rows.push([
    'Tramita PublicationMatcher',
    '`PublicationMatcher.match` (text + fields)',
    mb(r.textBytes).toFixed(1),
    o.seconds.toFixed(2),
    o.buildSeconds.toFixed(2),
    (mb(r.textBytes) / (o.seconds + o.buildSeconds)).toFixed(1),
    o.mbPerS.toFixed(1),
    `${o.textLinesMatched} lines (text); ${o.communicationsMatched} with fields`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log('');
  console.log(
    `Publication matching: ${r.communications.toLocaleString('en')} communications (${mb(r.textBytes).toFixed(1)} MB ` +
      `UTF-8), ${r.patterns.termos.toLocaleString('en')} terms + ${r.patterns.oab.toLocaleString('en')} OABs (same patterns both sides)`,
  );
  console.log(line(head));
  console.log(`|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  console.log('');
  console.log(
    `  ours: build ${o.buildSeconds.toFixed(2)} s (first in the process, JIT cold; again: ${o.rebuildSeconds.toFixed(2)} s); ` +
      `retained ${o.retainedMb.toFixed(1)} MB (heap + array buffers, of which typed arrays ${o.matcherMb.toFixed(1)} ` +
      `MB: ${o.words.toLocaleString('en')} words, ${o.states.toLocaleString('en')} states); RSS +${o.buildRssMb.toFixed(1)} MB over ` +
      `the first build; text-only pass ${o.textOnlySeconds.toFixed(2)} s`,
  );
  console.log(
    `  ours: ${o.idsReported.toLocaleString('en')} ids reported; planted monitors missed ${o.plantedMissed} of ${o.plantedTotal.toLocaleString('en')}; ids ` +
      `not planted ${o.unplanted} (a monitored name inside a longer one)`,
  );
  const e = r.extraction;
  console.log(
    `  extraction (first ${e.sample.toLocaleString('en')}): OABs printed ${e.oabPrinted}, missed ${e.oabMissed}, extra ${e.oabExtra}; CNJ numbers ` +
      `printed ${e.cnjPrinted}, missed ${e.cnjMissed}, extra ${e.cnjExtra}`,
  );
  console.log(
    `  machine: ${os.cpus().length} cores, load average ${r.load.start.toFixed(2)} at the start, ${r.load.end.toFixed(2)} at the end; ` +
      `node ${process.version}; ${execSync('grep --version').toString().split('\n')[0]}`,
  );
  console.log(
    `  grep counts lines with a substring match of a pattern as written (case-insensitive, accents as printed: no folding, no entities, one OAB spelling); ` +
      `ours counts whole-word folded terms and every OAB spelling — the line counts differ for those reasons.`,
  );
  console.log(
    `  ratio ours ÷ grep UTF-8 scan rate${r.grepUtf8Sample ? ' (from the first lines, the full run was killed)' : ''}: ${r.ratio.toFixed(1)} (target ` +
      `>= ${MATCHING_TARGET_RATIO}: ${r.ratio >= MATCHING_TARGET_RATIO ? 'MET' : 'NOT MET'}); ours ÷ grep bytes-mode scan ` +
      `rate: ${r.ratioVsC.toFixed(2)}`,
  );
  console.log('');
}

if (import.meta.url === `file://${process.argv[1]}` || fileURLToPath(import.meta.url) === path.resolve(process.argv[1] ?? '')) {
  const r = await runMatchingBench();
  if (r.ours.plantedMissed > 0) {
    console.error('matching bench: FAIL — planted monitors were missed');
    process.exitCode = 1;
  }
}
