/**
 * NUP, Número Único de Protocolo of federal administrative processes (Portaria Interministerial
 * nº 11/2019, "NUP 17"): `NNNNN.NNNNNN/AAAA-DD`, 17 digits. Two mod-11 check digits over the first 15
 * then 16 digits, weights 2, 3, 4... from the right, DV = 11 − (sum mod 11) keeping the units digit
 * (10 → 0, 11 → 1): the official calculator's algorithm, reference/upstream/nup.md §2.
 * Only the current 17-digit format is accepted (not the legacy 13/15/21-digit ones).
 */
import { identifierError, quoted } from './error.ts';

export interface Nup {
  /** The 17 digits, unmasked. */
  digits: string;
  /** `00000.000000/0000-00` */
  masked: string;
}

const MASKED = /^(\d{5})\.(\d{6})\/(\d{4})-(\d{2})$/;
const BARE = /^(\d{5})(\d{6})(\d{4})(\d{2})$/;

function dv(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, weight = 2; i >= 0; i--, weight++) sum += weight * Number(digits[i]);
  return (11 - (sum % 11)) % 10;
}

/** The 2 check digits of the first 15 digits (UP code, sequential, year). */
export function nupCheckDigits(first15: string): string {
  if (!/^\d{15}$/.test(first15)) throw new TypeError(`nupCheckDigits: expected 15 digits, got ${JSON.stringify(first15)}`);
  const d1 = dv(first15);
  return `${d1}${dv(`${first15}${d1}`)}`;
}

/** Masks 17 digits as `00000.000000/0000-00` (no validation beyond the shape). */
export function formatNup(digits: string): string {
  const m = BARE.exec(digits);
  if (!m) throw new TypeError(`formatNup: expected 17 digits, got ${JSON.stringify(digits)}`);
  return `${m[1]}.${m[2]}/${m[3]}-${m[4]}`;
}

/** Parses a masked or bare (17-digit) NUP and checks its check digits; throws INVALID_NUP. */
export function parseNup(input: unknown, field?: string): Nup {
  const fail = (message: string) => identifierError('INVALID_NUP', message, input, field);
  if (typeof input !== 'string') throw fail('NUP must be a string.');
  const text = input.trim();
  if (text === '') throw fail('NUP is empty.');
  const bad = /[^\d./-]/.exec(text);
  if (bad) throw fail(`NUP ${quoted(text)} contains ${JSON.stringify(bad[0])}; only digits, '.', '/' and '-' are allowed.`);
  const count = text.replace(/\D/g, '').length;
  if (count !== 17) throw fail(`NUP ${quoted(text)} has ${count} digits; expected 17 (00000.000000/0000-00).`);
  const m = MASKED.exec(text) ?? BARE.exec(text);
  if (!m) throw fail(`NUP ${quoted(text)} is not masked as 00000.000000/0000-00 (or 17 bare digits).`);
  const digits = `${m[1]}${m[2]}${m[3]}${m[4]}`;
  const expected = nupCheckDigits(digits.slice(0, 15));
  if (m[4] !== expected) throw fail(`NUP ${quoted(text)} has check digits ${m[4]}; mod 11 gives ${expected}.`);
  return { digits, masked: formatNup(digits) };
}

/** True when `input` is a valid NUP, masked or bare. */
export function isValidNup(input: unknown): boolean {
  try {
    parseNup(input);
    return true;
  } catch {
    return false;
  }
}
