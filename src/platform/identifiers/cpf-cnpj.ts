/**
 * CPF (11 digits) and CNPJ (14 characters, numeric or alphanumeric) with their mod-11 check digits.
 * CPF: Receita Federal algorithm, weights 10..2 then 11..2. CNPJ: IN RFB 2.229/2024 (alphanumeric
 * CNPJ, in force from July 2026): the first 12 positions are [0-9A-Z], the last 2 numeric check
 * digits; each character is worth its ASCII code − 48; weights 5,4,3,2,9,8,7,6,5,4,3,2 then
 * 6,5,4,3,2,9,8,7,6,5,4,3,2. For both: remainder < 2 → 0, else 11 − remainder.
 * Accepted spellings: bare, or exactly `000.000.000-00` / `00.000.000/0000-00` (any case).
 */
import { identifierError, quoted } from './error.ts';

export interface CpfCnpj {
  kind: 'cpf' | 'cnpj';
  /** Digits only (CPF) or the 14 characters uppercase without punctuation (CNPJ). */
  value: string;
  /** `000.000.000-00` or `00.000.000/0000-00` (letters kept in an alphanumeric CNPJ). */
  masked: string;
}

const CPF_MASK = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const CNPJ_MASK = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/;
const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function mod11(values: number[], weights: number[]): number {
  const sum = values.reduce((acc, v, i) => acc + v * weights[i], 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The 2 check digits of a 9-digit CPF base. */
export function cpfCheckDigits(base9: string): string {
  if (!/^\d{9}$/.test(base9)) throw new TypeError(`cpfCheckDigits: expected 9 digits, got ${JSON.stringify(base9)}`);
  const values = [...base9].map(Number);
  const d1 = mod11(values, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = mod11([...values, d1], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${d1}${d2}`;
}

/** The 2 check digits of a 12-character CNPJ base ([0-9A-Z], case-insensitive). */
export function cnpjCheckDigits(base12: string): string {
  const base = base12.toUpperCase();
  if (!/^[0-9A-Z]{12}$/.test(base)) throw new TypeError(`cnpjCheckDigits: expected 12 characters [0-9A-Z], got ${JSON.stringify(base12)}`);
  const values = [...base].map((c) => c.charCodeAt(0) - 48);
  const d1 = mod11(values, CNPJ_WEIGHTS.slice(1));
  const d2 = mod11([...values, d1], CNPJ_WEIGHTS);
  return `${d1}${d2}`;
}

export function formatCpf(value: string): string {
  return `${value.slice(0, 3)}.${value.slice(3, 6)}.${value.slice(6, 9)}-${value.slice(9, 11)}`;
}

export function formatCnpj(value: string): string {
  return `${value.slice(0, 2)}.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-${value.slice(12, 14)}`;
}

/** Parses a CPF or CNPJ (kind decided by length); throws INVALID_CPF_CNPJ saying what is wrong. */
export function parseCpfCnpj(input: unknown, field?: string): CpfCnpj {
  const fail = (message: string) => identifierError('INVALID_CPF_CNPJ', message, input, field);
  if (typeof input !== 'string') throw fail('CPF/CNPJ must be a string.');
  const text = input.trim().toUpperCase();
  if (text === '') throw fail('CPF/CNPJ is empty.');
  const bad = /[^0-9A-Z./-]/.exec(text);
  if (bad) throw fail(`CPF/CNPJ ${quoted(text)} contains ${JSON.stringify(bad[0])}; only digits, letters and the mask's '.', '/' and '-' are allowed.`);
  const value = text.replace(/[./-]/g, '');
  const punctuated = value !== text;

  if (value.length === 11) {
    if (/[A-Z]/.test(value)) throw fail(`CPF ${quoted(text)} contains letters; a CPF has only digits.`);
    if (punctuated && !CPF_MASK.test(text)) throw fail(`CPF ${quoted(text)} is not masked as 000.000.000-00 (or 11 bare digits).`);
    if (/^(\d)\1{10}$/.test(value)) throw fail(`CPF ${quoted(text)} is a repeated-digit sequence, not a real CPF.`);
    const expected = cpfCheckDigits(value.slice(0, 9));
    if (value.slice(9) !== expected) throw fail(`CPF ${quoted(text)} has check digits ${value.slice(9)}; mod 11 gives ${expected}.`);
    return { kind: 'cpf', value, masked: formatCpf(value) };
  }
  if (value.length === 14) {
    if (!/^\d{2}$/.test(value.slice(12))) throw fail(`CNPJ ${quoted(text)}: the last 2 characters (check digits) must be digits.`);
    if (punctuated && !CNPJ_MASK.test(text)) throw fail(`CNPJ ${quoted(text)} is not masked as 00.000.000/0000-00 (or 14 bare characters).`);
    if (/^(\d)\1{13}$/.test(value)) throw fail(`CNPJ ${quoted(text)} is a repeated-digit sequence, not a real CNPJ.`);
    const expected = cnpjCheckDigits(value.slice(0, 12));
    if (value.slice(12) !== expected) throw fail(`CNPJ ${quoted(text)} has check digits ${value.slice(12)}; mod 11 gives ${expected}.`);
    return { kind: 'cnpj', value, masked: formatCnpj(value) };
  }
  throw fail(`CPF/CNPJ ${quoted(text)} has ${value.length} characters without punctuation; expected 11 (CPF) or 14 (CNPJ).`);
}

/** Like parseCpfCnpj, but only a CPF is accepted. */
export function parseCpf(input: unknown, field?: string): CpfCnpj {
  const parsed = parseCpfCnpj(input, field);
  if (parsed.kind !== 'cpf') throw identifierError('INVALID_CPF_CNPJ', `Expected a CPF (11 digits), got a CNPJ.`, input, field);
  return parsed;
}

/** Like parseCpfCnpj, but only a CNPJ is accepted. */
export function parseCnpj(input: unknown, field?: string): CpfCnpj {
  const parsed = parseCpfCnpj(input, field);
  if (parsed.kind !== 'cnpj') throw identifierError('INVALID_CPF_CNPJ', `Expected a CNPJ (14 characters), got a CPF.`, input, field);
  return parsed;
}

function valid(parse: (input: unknown) => CpfCnpj, input: unknown): boolean {
  try {
    parse(input);
    return true;
  } catch {
    return false;
  }
}

/** True for a valid CPF, masked or bare. */
export function isValidCpf(input: unknown): boolean {
  return valid(parseCpf, input);
}

/** True for a valid CNPJ (numeric or alphanumeric), masked or bare. */
export function isValidCnpj(input: unknown): boolean {
  return valid(parseCnpj, input);
}
