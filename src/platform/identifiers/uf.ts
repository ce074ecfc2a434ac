/**
 * The 27 Brazilian federative units (26 states + DF), in the order of the CNJ "TR" code used for
 * state courts (J=8) and regional electoral courts (J=6): alphabetical by state *name*, so TR 01 = AC
 * (Acre), 03 = AP (Amapá) before 04 = AM (Amazonas), 07 = DF, 26 = SP (São Paulo), 27 = TO.
 * Source: Res. CNJ 65/2008 (see reference/upstream/cnj-number.md §3).
 */

export const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SE',
  'SP',
  'TO',
] as const;

export type Uf = (typeof UFS)[number];

const UF_SET: ReadonlySet<string> = new Set(UFS);

export function isUf(value: string): value is Uf {
  return UF_SET.has(value);
}

/** The UF whose state-court / TRE code is `tr` ('01'..'27'), or undefined. */
export function ufOfStateTr(tr: string): Uf | undefined {
  if (!/^\d{2}$/.test(tr)) return undefined;
  return UFS[Number(tr) - 1];
}
