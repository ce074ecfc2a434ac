/**
 * Número da peça of the national warrants database (BNMP, reference/upstream/wave2.md §E.3): 28 digits
 * = the case's CNJ number (20) + the piece's type (2, e.g. 01 mandado de prisão; types above 14 exist)
 * + a sequence (4) + 2 check digits. Masked `NNNNNNN-DD.AAAA.J.TR.OOOO.TT.SSSS-DV` or 28 bare digits.
 * The CNJ part's own check digits are verified; the last two are not (they are not MOD 97 over the
 * 26 digits, and their rule is unpublished): a number is never refused on them.
 */
import { cnjCheckDigits, formatCnj } from './cnj.ts';
import { identifierError, quoted } from './error.ts';

export interface NumeroPeca {
  /** 28 digits. */
  digits: string;
  masked: string;
  /** The case's 20 digits. */
  cnj: string;
  /** Two digits: 01 mandado de prisão, 02 contramandado, 10 mandado de internação… */
  tipo: string;
}

const MASKED = /^(\d{7})-(\d{2})\.(\d{4})\.(\d)\.(\d{2})\.(\d{4})\.(\d{2})\.(\d{4})-(\d{2})$/;
const BARE = /^(\d{7})(\d{2})(\d{4})(\d)(\d{2})(\d{4})(\d{2})(\d{4})(\d{2})$/;

export function formatNumeroPeca(digits: string): string {
  return `${formatCnj(digits.slice(0, 20))}.${digits.slice(20, 22)}.${digits.slice(22, 26)}-${digits.slice(26)}`;
}

/** Parses a piece number; throws 400 INVALID_NUMERO_PECA saying what is wrong. */
export function parseNumeroPeca(input: unknown, field?: string): NumeroPeca {
  const fail = (m: string) => identifierError('INVALID_NUMERO_PECA', m, input, field);
  if (typeof input !== 'string') throw fail('The piece number must be a string.');
  const text = input.trim();
  const count = text.replace(/\D/g, '').length;
  if (/[^\d.-]/.test(text)) throw fail(`Piece number ${quoted(text)} has characters other than digits, '.' and '-'.`);
  if (count !== 28)
    throw fail(`Piece number ${quoted(text)} has ${count} digits; expected 28 (the case's 20, the type's 2, a sequence of 4 and 2 check digits).`);
  const m = MASKED.exec(text) ?? BARE.exec(text);
  if (!m) throw fail(`Piece number ${quoted(text)} is not masked as NNNNNNN-DD.AAAA.J.TR.OOOO.TT.SSSS-DV (or 28 bare digits).`);
  const [, seq, dd, year, j, tr, origin, tipo] = m;
  if (cnjCheckDigits(seq, year, j, tr, origin) !== dd) throw fail(`Piece number ${quoted(text)}: its case number has wrong check digits (MOD 97-10).`);
  if (tipo === '00') throw fail(`Piece number ${quoted(text)}: type 00 does not exist.`);
  const digits = text.replace(/\D/g, '');
  return { digits, masked: formatNumeroPeca(digits), cnj: digits.slice(0, 20), tipo };
}
