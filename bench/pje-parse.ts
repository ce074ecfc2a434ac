/**
 * Parse cost per page of PJe's consulta pública detail pages (issue 31): parsePjeDetail over the four
 * real captures (TJMA 1st and 2nd degree, TJCE, TJRJ; 76–100 kB each), decodePage apart, in µs per page,
 * median of 5 runs of ROUNDS parses after a warm-up. No target yet: the number is recorded.
 * Standalone: node bench/pje-parse.ts. For run.ts: `console.log(describePjeParse())`.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { decodePage } from '../src/sources/consultas/challenge.ts';
import { parsePjeDetail } from '../src/sources/consultas/pje/parse.ts';

const PAGES = ['pje-tjma-detalhe_ok.html', 'pje-tjma-detalhe_ok_2g.html', 'pje-tjce-detalhe-3000739-94.2025.8.06.0100.html', 'pje-tjrj-detalhe-0937165-77.2025.8.19.0001.html'];
const ROUNDS = 50;

function usPer(work: () => unknown): number {
  for (let i = 0; i < 10; i++) work();
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < ROUNDS; i++) work();
    runs.push(((performance.now() - t0) * 1000) / ROUNDS);
  }
  return runs.sort((a, b) => a - b)[2];
}

export interface PjeParseCost {
  page: string;
  bytes: number;
  decodeUs: number;
  parseUs: number;
}

export function pjeParseBench(): PjeParseCost[] {
  return PAGES.map((page) => {
    const bytes = readFileSync(new URL(`../src/sources/consultas/fixtures/${page}`, import.meta.url));
    const html = decodePage(bytes);
    return { page, bytes: bytes.length, decodeUs: usPer(() => decodePage(bytes)), parseUs: usPer(() => parsePjeDetail(html)) };
  });
}

export function describePjeParse(costs = pjeParseBench()): string {
  const rows = costs.map((c) => `${c.page.replace(/\.html$/, '')} (${Math.round(c.bytes / 1024)} kB): parse ${Math.round(c.parseUs)} µs, decode ${Math.round(c.decodeUs)} µs`);
  const mean = costs.reduce((s, c) => s + c.parseUs, 0) / costs.length;
  return `PJe detail page parse cost: mean ${Math.round(mean)} µs per page over ${costs.length} real pages (median of 5×${ROUNDS}).\n  ${rows.join('\n  ')}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describePjeParse());
