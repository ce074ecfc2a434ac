/**
 * The consultation pages' parse cost (issue 31): µs per page for each system's parser, on the real
 * pages (reference/upstream/real/, copied as the connectors' fixtures), parsed again and again after a
 * warm-up. e-SAJ: the TJSP page (183 KB, 8 parties, 118 movements). PJe: the detail pages of TJMA (1st
 * and 2nd degree), TJCE and TJRJ, decoded once (their bytes are decoded by charset before parsing);
 * Set 2's TJSP detail and TJRO's 30-row search answer (issue 44).
 * Node's `performance.now`; the median of 5 rounds.
 * Standalone: node bench/consultas.ts
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseEsajPage } from '../src/sources/consultas/esaj/parse.ts';
import { pageText } from '../src/sources/http/body.ts';
import { parsePjeDetail, parsePjeSearch } from '../src/sources/consultas/pje/parse.ts';

interface PageParser {
  system: string;
  page: string;
  html: string;
  parse(html: string): unknown;
}

const fixture = (rel: string) => pageText(readFileSync(new URL(`../src/sources/consultas/${rel}`, import.meta.url)));

const pjePage = (file: string, grau: 1 | 2): PageParser => ({
  system: 'PJe',
  page: file,
  html: fixture(`fixtures/${file}`),
  parse: (h) => parsePjeDetail(h, { grau }),
});

/** One row per system and page. */
export const PAGE_PARSERS: PageParser[] = [
  {
    system: 'e-SAJ',
    page: 'esaj-1.html (TJSP cpopg)',
    html: fixture('fixtures/esaj-1.html'),
    parse: (h) => parseEsajPage(h, { numeroCnj: '10001497120248260346', tribunal: 'TJSP', grau: 1 }),
  },
  pjePage('pje-tjma-detalhe_ok.html', 1),
  pjePage('pje-tjma-detalhe_ok_2g.html', 2),
  pjePage('pje-tjce-detalhe-3000739-94.2025.8.06.0100.html', 1),
  pjePage('pje-tjrj-detalhe-0937165-77.2025.8.19.0001.html', 1),
  // Set 2 (issue 44): the TJSP detail whose hidden full table repeats the visible last five, and TJRO's capped 30-row search answer.
  {
    system: 'e-SAJ',
    page: 'set2/tjsp_esaj_cpopg_detalhe.html (TJSP cpopg)',
    html: fixture('fixtures/set2/tjsp_esaj_cpopg_detalhe.html'),
    parse: (h) => parseEsajPage(h, { numeroCnj: '10542715120248260114', tribunal: 'TJSP', grau: 1 }),
  },
  {
    system: 'PJe',
    page: 'set2/tjro_pje_busca_nomeparte.html (search, 30 rows)',
    html: fixture('fixtures/set2/tjro_pje_busca_nomeparte.html'),
    parse: parsePjeSearch,
  },
];

const WARMUP = 50;
const ROUNDS = 5;
const PER_ROUND = 100;

export function consultaParseBench(): { system: string; page: string; kb: number; usPerPage: number }[] {
  return PAGE_PARSERS.map((p) => {
    for (let i = 0; i < WARMUP; i++) p.parse(p.html);
    const rounds: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = performance.now();
      for (let i = 0; i < PER_ROUND; i++) p.parse(p.html);
      rounds.push(((performance.now() - t0) * 1000) / PER_ROUND);
    }
    rounds.sort((a, b) => a - b);
    return { system: p.system, page: p.page, kb: Math.round(Buffer.byteLength(p.html) / 1024), usPerPage: rounds[Math.floor(ROUNDS / 2)]! };
  });
}

export function describeConsultaParse(): string {
  return consultaParseBench()
    .map(
      (r) => `Consultation page parse: ${r.system} ${r.page}, ${r.kb} KB: ${r.usPerPage.toFixed(0)} µs per page (median of ${ROUNDS} rounds of ${PER_ROUND}).`,
    )
    .join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describeConsultaParse());
