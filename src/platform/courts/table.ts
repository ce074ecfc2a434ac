/**
 * The 92 Brazilian courts (5 superior + 6 TRF + 27 TJ + 24 TRT + 27 TRE + 3 TJM) and their case
 * systems, loaded once at import from `courts.csv` (copied verbatim from
 * reference/upstream/courts.csv; J/TR codes per Res. CNJ 65/2008, DataJud aliases per the DataJud
 * wiki; the `sistemas` column is best-effort, see reference/upstream/cnj-number.md §6).
 *
 * `sistemas` column rule (documented here because the column is free text):
 * - entries are separated by ';'; the FIRST entry is the court's current system;
 * - a later entry starting with the word "legado" is a legacy system; the word is stripped and the
 *   rest is split on '/' (in this column a '/' after "legado" always lists several systems:
 *   "legado e-SAJ/Projudi" → e-SAJ, Projudi; "legado PJe/DCP" → PJe, DCP);
 * - a later entry WITHOUT "legado" is a system used alongside the current one (TJAM "Projudi
 *   (juizados)", TJMG "JPe/Themis (2º grau)", TJSP "eproc (migração 2025-26)"): `sistemasAdicionais`;
 * - a trailing parenthetical is a note, not part of the name ("eproc (e-Proc/JMU)" → eproc);
 * - outside the legacy part '/' joins two names of ONE system ("Projudi/PJD" is TJGO's Projudi,
 *   "e-STF/STF Digital", "JPe/Themis"): the first name is used (Projudi, e-STF, JPe);
 * - "PJe-JT" (the labour courts' PJe) is kept distinct from "PJe", as the column spells it.
 */
import { readFileSync } from 'node:fs';
import { ApiError } from '../errors.ts';

export interface Court {
  sigla: string;
  nome: string;
  /** 'Superior' | 'Federal' | 'Estadual' | 'Trabalho' | 'Eleitoral' | 'Militar Estadual' */
  segmento: string;
  /** CNJ segment digit (Res. CNJ 65/2008): '1'..'9'. */
  j: string;
  /** CNJ court code within the segment: '00'..'27'. */
  tr: string;
  /** DataJud index alias (`api_publica_*`); null for STF, which has no index. */
  datajudAlias: string | null;
  /** Jurisdiction UFs; ['BR'] for national courts. */
  ufs: string[];
  /** The raw `sistemas` entries, split on ';' and trimmed (notes kept). */
  sistemas: string[];
  /** Normalized name of the current system. */
  sistemaAtual: string;
  /** Normalized names of systems in use alongside the current one. */
  sistemasAdicionais: string[];
  /** Normalized names of legacy systems. */
  sistemasLegados: string[];
}

export interface CourtSystem {
  nome: string;
  /** Siglas of the courts whose current system this is. */
  atual: string[];
  /** Siglas of the courts that use it alongside their current system. */
  adicional: string[];
  /** Siglas of the courts where it is legacy. */
  legado: string[];
}

const EXPECTED_COURTS = 92;
const HEADER = 'sigla,nome,segmento,j,tr,datajud_alias,uf,sistemas';

/** Drops a trailing "(note)": "eproc (e-Proc/JMU)" → "eproc". */
function withoutNote(entry: string): string {
  return entry.replace(/\s*\([^)]*\)\s*$/, '').trim();
}

/** One system named two ways ("Projudi/PJD"): keep the first name. */
function systemName(entry: string): string {
  return withoutNote(entry).split('/')[0].trim();
}

function parseSystems(raw: string): Pick<Court, 'sistemas' | 'sistemaAtual' | 'sistemasAdicionais' | 'sistemasLegados'> {
  const sistemas = raw
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (sistemas.length === 0) throw new Error(`courts.csv: empty sistemas column`);
  const [first, ...rest] = sistemas;
  const sistemasAdicionais: string[] = [];
  const sistemasLegados: string[] = [];
  for (const entry of rest) {
    const legacy = /^legado\s+(.+)$/i.exec(entry);
    if (legacy)
      sistemasLegados.push(
        ...withoutNote(legacy[1])
          .split('/')
          .map((s) => s.trim())
          .filter(Boolean),
      );
    else sistemasAdicionais.push(systemName(entry));
  }
  return { sistemas, sistemaAtual: systemName(first), sistemasAdicionais, sistemasLegados };
}

function parseCsv(text: string): Court[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines[0] !== HEADER) throw new Error(`courts.csv: unexpected header ${JSON.stringify(lines[0])}`);
  return lines.slice(1).map((line, i) => {
    // The file has no quoted fields; refuse one rather than mis-split it.
    const cols = line.split(',');
    if (cols.length !== 8 || line.includes('"')) throw new Error(`courts.csv line ${i + 2}: expected 8 unquoted columns`);
    const [sigla, nome, segmento, j, tr, alias, uf, sistemas] = cols.map((c) => c.trim());
    if (!/^\d$/.test(j) || !/^\d{2}$/.test(tr)) throw new Error(`courts.csv line ${i + 2}: bad j/tr ${j}.${tr}`);
    const court: Court = { sigla, nome, segmento, j, tr, datajudAlias: alias || null, ufs: uf.split('|'), ...parseSystems(sistemas) };
    // Shared reference data: freeze it so no caller can change it for everyone else.
    for (const v of Object.values(court)) if (Array.isArray(v)) Object.freeze(v);
    return Object.freeze(court);
  });
}

function buildSystems(courts: readonly Court[]): CourtSystem[] {
  const byName = new Map<string, CourtSystem>();
  const add = (nome: string, role: 'atual' | 'adicional' | 'legado', sigla: string) => {
    let s = byName.get(nome);
    if (!s) {
      s = { nome, atual: [], adicional: [], legado: [] };
      byName.set(nome, s);
    }
    if (!s[role].includes(sigla)) s[role].push(sigla);
  };
  for (const c of courts) {
    add(c.sistemaAtual, 'atual', c.sigla);
    for (const n of c.sistemasAdicionais) add(n, 'adicional', c.sigla);
    for (const n of c.sistemasLegados) add(n, 'legado', c.sigla);
  }
  return [...byName.values()]
    .sort((a, b) => a.nome.localeCompare(b.nome, 'en', { sensitivity: 'base' }))
    .map((s) => {
      for (const list of [s.atual, s.adicional, s.legado]) Object.freeze(list);
      return Object.freeze(s);
    });
}

export const COURTS: readonly Court[] = Object.freeze(parseCsv(readFileSync(new URL('./courts.csv', import.meta.url), 'utf8')));
if (COURTS.length !== EXPECTED_COURTS) throw new Error(`courts.csv: expected ${EXPECTED_COURTS} courts, found ${COURTS.length}`);

/** Court systems, deduplicated by normalized name, each with the courts that use it. */
export const SYSTEMS: readonly CourtSystem[] = Object.freeze(buildSystems(COURTS));

const BY_SIGLA = new Map(COURTS.map((c) => [c.sigla.toUpperCase(), c]));
const BY_JTR = new Map(COURTS.map((c) => [`${c.j}.${c.tr}`, c]));
if (BY_SIGLA.size !== COURTS.length || BY_JTR.size !== COURTS.length) throw new Error('courts.csv: duplicate sigla or J.TR');

/** Court by sigla, case-insensitive ('tjsp', 'TRE-SP'); undefined when unknown. */
export function courtBySigla(sigla: string): Court | undefined {
  return BY_SIGLA.get(sigla.trim().toUpperCase());
}

/** Court whose own CNJ code is exactly J.TR (e.g. '8', '26' → TJSP); undefined when none. */
export function courtByJTr(j: string, tr: string): Court | undefined {
  return BY_JTR.get(`${j}.${tr}`);
}

/** The court a request names by sigla (any case), or 422 UNKNOWN_COURT naming the field. */
export function requireCourtSigla(sigla: string, field: string): Court {
  const court = courtBySigla(sigla);
  if (!court)
    throw new ApiError('UNKNOWN_COURT', `${JSON.stringify(sigla)} is not a court sigla; GET /v1/tribunais lists the 92 (e.g. TJSP, TRF4, TRE-SP).`, {
      field,
      value: sigla,
    });
  return court;
}
