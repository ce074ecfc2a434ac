/**
 * The phases of a case as its movements show them, keyed on TPU movement codes (reference/upstream/
 * tpu.md §2, §4): names vary by court ("Expedida/certificada" vs "Expedida/Certificada"), codes do not.
 * Hearings have no verified code in our reference, so they are recognised by name; so are decisions
 * on urgent relief (liminar, tutela), whose codes are spread over the TPU.
 */
import type { FactMovement } from './facts.ts';

export type Phase =
  | 'distribuicao'
  | 'audiencia'
  | 'decisao'
  | 'constricao'
  | 'julgamento'
  | 'recurso'
  | 'transito'
  | 'baixa'
  | 'arquivamento_provisorio'
  | 'arquivamento_definitivo'
  | 'conclusao';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Subtree 193 "Julgamento" of the magistrate movements (tpu.md §2, as downloaded 2026-10-09), plus 12199 "Julgado". */
const JUDGMENT = new Set<number>([
  193,
  196,
  198,
  200,
  202,
  208,
  210,
  212,
  214,
  218,
  219,
  220,
  221,
  228,
  230,
  235,
  236,
  237,
  238,
  239,
  240,
  241,
  242,
  244,
  385,
  ...range(442, 466),
  471,
  853,
  871,
  884,
  900,
  901,
  972,
  973,
  ...range(1042, 1050),
  10953,
  10961,
  10964,
  10965,
  ...range(11373, 11381),
  11394,
  11396,
  ...range(11401, 11409),
  11411,
  11795,
  11796,
  11801,
  ...range(11876, 11879),
  12028,
  12032,
  12033,
  12034,
  12041,
  12184,
  12187,
  12252,
  12253,
  12254,
  12256,
  12257,
  12258,
  12298,
  12319,
  ...range(12321, 12331),
  ...range(12433, 12443),
  ...range(12450, 12453),
  12458,
  12459,
  12475,
  12199,
]);

const BY_CODE = new Map<number, Phase>([
  [26, 'distribuicao'],
  [36, 'distribuicao'],
  [12164, 'decisao'],
  [11382, 'constricao'],
  [848, 'transito'],
  [22, 'baixa'],
  [245, 'arquivamento_provisorio'],
  [246, 'arquivamento_definitivo'],
  // In subtree 193 but, in the labour courts, they close the case: arquivamento (rito sumaríssimo) and por ausência do reclamante.
  [472, 'arquivamento_definitivo'],
  [473, 'arquivamento_definitivo'],
  [51, 'conclusao'],
]);

/** 38 of complement 18 `motivo_da_remessa`: "em grau de recurso". */
const REMESSA = 123;
const EM_GRAU_DE_RECURSO = '38';

export function phaseOf(m: Pick<FactMovement, 'codigo' | 'nome' | 'complementos'>): Phase | null {
  const code = Number(m.codigo);
  const known = BY_CODE.get(code);
  if (known) return known;
  if (JUDGMENT.has(code)) return 'julgamento';
  if (code === REMESSA && m.complementos.some((c) => c.valor === EM_GRAU_DE_RECURSO || /recurso/i.test(c.nome))) return 'recurso';
  if (/audi[eê]ncia/i.test(m.nome)) return 'audiencia';
  if (/liminar|tutela|decis[aã]o/i.test(m.nome)) return 'decisao';
  return null;
}
