/**
 * The sandbox's own records: what the simulators render into DataJud documents and portal answers.
 * Times are epoch milliseconds. Nothing here is real data (see names.ts for the naming scheme).
 */
import type { Court } from '../../platform/courts/table.ts';
import type { Grau } from './families.ts';
import type { Code, MovementType } from './tpu.ts';

export interface Orgao {
  codigo: number;
  nome: string;
  /** As DataJud carries it: usually a 7-digit IBGE code, sometimes not (datajud.md §7). */
  codigoMunicipioIBGE: number;
  /** The unit-of-origin code (OOOO) numbers filed here carry. */
  origem: string;
  /** The UF the órgão sits in (for local parties and lawyers). */
  uf: string;
  /** CNJ TR of numbers filed here when it is not the court's own (STM's CJMs: 01..12). */
  tr?: string;
}

export interface Movement {
  type: MovementType;
  at: number;
}

export interface Instance {
  grau: Grau;
  /** DataJud `_id`/`id`, e.g. `TRF4_G2_50192100820214047100`. */
  id: string;
  classe: Code;
  assuntos: readonly Code[];
  orgao: Orgao;
  sistema: Code;
  formato: Code;
  /** dataAjuizamento of this instance (the filing, or the arrival of the appeal). */
  ajuizadoAt: number;
  /** Chronological. */
  movements: Movement[];
  /** The order DataJud lists `movimentos` in: indexes into `movements`, shuffled, with exact duplicates (datajud.md §8.2). */
  listing: number[];
  /** Sub-millisecond digits of `@timestamp` (datajud.md §7: nanosecond precision). */
  nanos: string;
}

export type TipoPessoa = 'FISICA' | 'JURIDICA';

export interface Lawyer {
  nome: string;
  /** null: the portal does not know the registration. */
  oab: { uf: string; numero: string } | null;
}

/** A person or organization of the pools: the same one appears in many cases. */
export interface Person {
  nome: string;
  tipoPessoa: TipoPessoa;
  /** CPF (11 digits) or CNPJ (14 characters, maybe alphanumeric); null when the portal hides it. */
  documento: string | null;
  /** Lawyers who usually represent this party (companies keep their firm). */
  lawyers: readonly Lawyer[];
  /** Cases where this party appears, in generation order. */
  cases: SandboxCase[];
}

export interface Party {
  polo: 'ATIVO' | 'PASSIVO' | 'OUTROS';
  tipo: string;
  person: Person;
  advogados: readonly Lawyer[];
}

export interface PublicDocument {
  /** Stable for the case. */
  id: string;
  titulo: string;
  tipo: string;
  juntadaAt: number;
  mimeType: 'application/pdf';
}

export interface SandboxCase {
  /** Position in the data set (generation order). */
  index: number;
  /** 20 digits. */
  numero: string;
  court: Court;
  alias: string;
  familyKey: string;
  /** When the case shows up: its first movement. */
  filedAt: number;
  instances: Instance[];
  valorCausaCentavos: number | null;
  partes: Party[];
  documentos: PublicDocument[];
}

/** Number of movements of `instance` dated at or before `now` (movements are chronological). */
export function visibleMovementCount(instance: Instance, now: number): number {
  const m = instance.movements;
  let lo = 0;
  let hi = m.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (m[mid].at <= now) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function isCaseVisible(c: SandboxCase, now: number): boolean {
  return c.filedAt <= now;
}
