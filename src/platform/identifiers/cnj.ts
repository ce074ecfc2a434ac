/**
 * CNJ unique case number `NNNNNNN-DD.AAAA.J.TR.OOOO` (Res. CNJ 65/2008, art. 1º): parsing, the
 * ISO 7064 MOD 97-10 check digits (Anexo VIII) and the J.TR → court mapping (Res. 65 codes, see
 * reference/upstream/cnj-number.md §3–4). Unknown J.TR combinations throw; nothing defaults.
 */
import { ApiError } from '../errors.ts';
import { courtBySigla, type Court } from '../courts/table.ts';
import { identifierError, quoted } from './error.ts';
import { ufOfStateTr } from './uf.ts';

export interface Cnj {
  /** The 20 digits, unmasked (as DataJud stores them). */
  digits: string;
  /** `NNNNNNN-DD.AAAA.J.TR.OOOO` */
  masked: string;
  sequential: string;
  checkDigits: string;
  year: string;
  /** J: the segment of the judiciary. */
  segment: string;
  /** TR: the court within the segment. */
  tribunal: string;
  /** OOOO: the unit of origin. */
  origin: string;
}

const MASKED = /^(\d{7})-(\d{2})\.(\d{4})\.(\d)\.(\d{2})\.(\d{4})$/;
const BARE = /^(\d{7})(\d{2})(\d{4})(\d)(\d{2})(\d{4})$/;

/** DD = 98 − (NNNNNNN‖AAAA‖J‖TR‖OOOO‖00 mod 97), two digits (BigInt: the operand has 20 digits). */
export function cnjCheckDigits(sequential: string, year: string, segment: string, tribunal: string, origin: string): string {
  const base = BigInt(`${sequential}${year}${segment}${tribunal}${origin}00`);
  return String(98n - (base % 97n)).padStart(2, '0');
}

/** Masks 20 digits as `NNNNNNN-DD.AAAA.J.TR.OOOO` (no validation beyond the shape). */
export function formatCnj(digits: string): string {
  const m = BARE.exec(digits);
  if (!m) throw new TypeError(`formatCnj: expected 20 digits, got ${JSON.stringify(digits)}`);
  return `${m[1]}-${m[2]}.${m[3]}.${m[4]}.${m[5]}.${m[6]}`;
}

function invalid(message: string, input: unknown, field?: string): ApiError {
  return identifierError('INVALID_CNJ', message, input, field);
}

/** Parses a masked or bare (20-digit) CNJ number and checks its check digits; throws INVALID_CNJ. */
export function parseCnj(input: unknown, field?: string): Cnj {
  if (typeof input !== 'string') throw invalid('CNJ number must be a string.', input, field);
  const text = input.trim();
  if (text === '') throw invalid('CNJ number is empty.', input, field);
  const bad = /[^\d.-]/.exec(text);
  if (bad) {
    throw invalid(`CNJ number ${quoted(text)} contains ${JSON.stringify(bad[0])}; only digits, '-' and '.' are allowed.`, input, field);
  }
  const count = text.replace(/\D/g, '').length;
  if (count !== 20) throw invalid(`CNJ number ${quoted(text)} has ${count} digits; expected 20.`, input, field);
  const m = MASKED.exec(text) ?? BARE.exec(text);
  if (!m) {
    throw invalid(`CNJ number ${quoted(text)} is not masked as NNNNNNN-DD.AAAA.J.TR.OOOO (or 20 bare digits).`, input, field);
  }
  const [, sequential, checkDigits, year, segment, tribunal, origin] = m;
  const expected = cnjCheckDigits(sequential, year, segment, tribunal, origin);
  if (expected !== checkDigits) {
    throw invalid(`CNJ number ${quoted(text)} has check digits ${checkDigits}; MOD 97-10 gives ${expected}.`, input, field);
  }
  const digits = `${sequential}${checkDigits}${year}${segment}${tribunal}${origin}`;
  return { digits, masked: formatCnj(digits), sequential, checkDigits, year, segment, tribunal, origin };
}

/** True when `input` is a well-formed CNJ number with valid check digits. */
export function isValidCnj(input: unknown): boolean {
  try {
    parseCnj(input);
    return true;
  } catch {
    return false;
  }
}

const STATE_MILITARY: Record<string, string> = { '13': 'TJMMG', '21': 'TJMRS', '26': 'TJMSP' };

/**
 * Sigla of the court a CNJ J.TR names, or undefined (cnj-number.md §4). J=2 is the CNJ and TR=90 the
 * councils CJF/CSJT: not courts. J=7 TR 01..12 (the 12 CJMs, first instance of the JMU) → STM.
 */
export function cnjCourtSigla(segment: string, tribunal: string): string | undefined {
  if (!/^\d$/.test(segment) || !/^\d{2}$/.test(tribunal)) return undefined;
  const n = Number(tribunal);
  switch (segment) {
    case '1':
      return n === 0 ? 'STF' : undefined;
    case '3':
      return n === 0 ? 'STJ' : undefined;
    case '4':
      return n >= 1 && n <= 6 ? `TRF${n}` : undefined;
    case '5':
      return n === 0 ? 'TST' : n <= 24 ? `TRT${n}` : undefined;
    case '6': {
      const uf = ufOfStateTr(tribunal);
      return n === 0 ? 'TSE' : uf && `TRE-${uf}`;
    }
    case '7':
      return n <= 12 ? 'STM' : undefined;
    case '8': {
      const uf = ufOfStateTr(tribunal);
      return uf && (uf === 'DF' ? 'TJDFT' : `TJ${uf}`);
    }
    case '9':
      return STATE_MILITARY[tribunal];
    default:
      return undefined; // J=0 does not exist; J=2 is the CNJ
  }
}

function whyNoCourt(segment: string, tribunal: string): string {
  if (segment === '2') return 'segment J=2 is the CNJ (Conselho Nacional de Justiça), which is not a court';
  if (tribunal === '90' && (segment === '4' || segment === '5')) {
    return `TR=90 in segment J=${segment} is the ${segment === '4' ? 'CJF' : 'CSJT'}, a council, not a court`;
  }
  return `J.TR ${segment}.${tribunal} names no court`;
}

/** The court a parsed CNJ number belongs to (its origin court); throws COURT_NOT_FOUND (422). */
export function courtOfCnj(cnj: Pick<Cnj, 'masked' | 'segment' | 'tribunal'>, field?: string): Court {
  const sigla = cnjCourtSigla(cnj.segment, cnj.tribunal);
  const court = sigla === undefined ? undefined : courtBySigla(sigla);
  if (!court) {
    throw new ApiError('COURT_NOT_FOUND', `CNJ number ${cnj.masked}: ${whyNoCourt(cnj.segment, cnj.tribunal)}.`, {
      ...(field ? { field } : {}),
      value: cnj.masked,
      segment: cnj.segment,
      tribunal: cnj.tribunal,
    });
  }
  return court;
}

/** parseCnj + courtOfCnj: INVALID_CNJ (400) for a bad number, COURT_NOT_FOUND (422) for no court. */
/**
 * Numbers parsed lately, as given: a hot case is asked for again and again, and the check digits and
 * the court lookup are on its path (measured in docs/benchmarks.md). Shared by requests: read-only.
 */
const recentlyParsed = new Map<string, Readonly<Cnj & { court: Court }>>();
const MAX_RECENTLY_PARSED = 1_000;

/** A valid number of a known court (parsed once per distinct text lately); an invalid one throws every time. */
export function parseCnjWithCourt(input: unknown, field?: string): Readonly<Cnj & { court: Court }> {
  if (typeof input === 'string') {
    const known = recentlyParsed.get(input);
    if (known) return known;
  }
  const cnj = parseCnj(input, field);
  const parsed = { ...cnj, court: courtOfCnj(cnj, field) };
  if (typeof input === 'string') {
    if (recentlyParsed.size >= MAX_RECENTLY_PARSED) recentlyParsed.delete(recentlyParsed.keys().next().value!);
    recentlyParsed.set(input, parsed);
  }
  return parsed;
}
