/**
 * How the simulated DJEN prints and matches OAB numbers. Courts print a lawyer's registration in
 * `numero_oab` in several spellings (djen.md §4.3): `57689` (most), zero-padded `057689`, UF-prefixed
 * `RS057689`, and about 15% with the thousands dot `57.689`.
 *
 * Matching rule of the simulated server (the quirk the connector must cope with): a `numeroOab`
 * query and each item's `numero_oab` are compared after stripping a UF prefix and leading zeros
 * on both sides, but NOT the dot. So `57689`, `057689` and `RS057689` find the same items, a plain
 * `57689` misses the dotted ones, and `57.689` finds only the dotted ones: a client asks both spellings.
 */
import type { Random } from '../data/prng.ts';

export const OAB_SPELLINGS = ['plain', 'padded', 'prefixed', 'dotted'] as const;
export type OabSpelling = (typeof OAB_SPELLINGS)[number];

/** "57689" → "57.689"; "1234567" → "1.234.567". */
function withThousandsDots(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, '.');
}

function padded(digits: string): string {
  return digits.length < 6 ? digits.padStart(6, '0') : `0${digits}`;
}

/** `numero` (digits, no leading zeros) as a court would print it in `numero_oab`. */
export function spellOab(uf: string, numero: string, spelling: OabSpelling): string {
  switch (spelling) {
    case 'plain':
      return numero;
    case 'padded':
      return padded(numero);
    case 'prefixed':
      return `${uf}${numero.padStart(6, '0')}`;
    case 'dotted':
      return withThousandsDots(numero);
  }
}

/** The key the simulated server compares: UF prefix and leading zeros stripped, dots kept. */
export function oabMatchKey(text: string): string {
  return text
    .trim()
    .toUpperCase()
    .replace(/^[A-Z]{2}/, '')
    .replace(/^0+/, '');
}

/** Digits only, without leading zeros: the canonical number behind any spelling. */
export function oabDigits(text: string): string {
  return text.replace(/\D/g, '').replace(/^0+/, '');
}

/** 65% plain, 10% padded, 10% prefixed, 15% dotted. */
export function drawSpelling(rng: Random): OabSpelling {
  const r = rng.float();
  return r < 0.65 ? 'plain' : r < 0.75 ? 'padded' : r < 0.85 ? 'prefixed' : 'dotted';
}
