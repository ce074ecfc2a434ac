/**
 * A simulated DJEN communication, resolved: everything its item and its texto are rendered from.
 * Generated ones are rebuilt on demand from the compact table (table.ts) and the case; published
 * ones (publish.ts) are kept whole.
 */
import type { OabSpelling } from './oab.ts';

export type Polo = 'A' | 'P';
export type Meio = 'D' | 'E';

export interface LawyerRef {
  nome: string;
  uf: string;
  /** Digits without leading zeros; null: the court printed no registration (named in texto only). */
  numero: string | null;
  spelling: OabSpelling;
}

export interface Addressee {
  nome: string;
  polo: Polo;
  /** The party's role as the header of the act prints it: AUTOR, RÉU, EXEQUENTE… */
  tipo: string;
  advogados: LawyerRef[];
}

/** How the court's act reads: eproc HTML (with the ADVOGADO(A) header), PJe HTML, or TJRJ plain text. */
export type TextStyle = 'eproc' | 'pje' | 'plain';

export interface Communication {
  id: number;
  hash: string;
  /** UTC epoch day of `data_disponibilizacao`. */
  day: number;
  /** When the court sent it (epoch ms): `created_at`. */
  createdAt: number;
  tribunal: string;
  /** The UF printed after the case number in eproc headers. */
  uf: string;
  orgao: { id: number; nome: string };
  numero: string;
  classe: { codigo: number; nome: string };
  /** G2/superior acts name the rapporteur. */
  relator: string | null;
  tipoComunicacao: string;
  tipoDocumento: string;
  meio: Meio;
  numeroComunicacao: number;
  cancelamento: { at: number; motivo: string } | null;
  destinatarios: Addressee[];
  /** Lawyers named without a party (published communications). */
  outrosAdvogados: LawyerRef[];
  style: TextStyle;
  /** Paragraphs of the act's body. */
  corpo: string[];
  /** A texto given verbatim (publish), instead of the rendered one. */
  textoLivre: string | null;
  link: string | null;
}

/** The item as DJEN serves it (djen-comunicacao-sample.json), keys in the same order. */
export interface DjenItem {
  id: number;
  data_disponibilizacao: string;
  siglaTribunal: string;
  tipoComunicacao: string;
  nomeOrgao: string;
  idOrgao: number;
  texto: string;
  numero_processo: string;
  meio: Meio;
  link: string | null;
  tipoDocumento: string;
  nomeClasse: string;
  codigoClasse: string;
  numeroComunicacao: number;
  ativo: boolean;
  hash: string;
  status: string;
  motivo_cancelamento: string | null;
  data_cancelamento: string | null;
  datadisponibilizacao: string;
  meiocompleto: string;
  numeroprocessocommascara: string;
  destinatarios: { nome: string; comunicacao_id: number; polo: Polo }[];
  destinatarioadvogados: {
    id: number;
    comunicacao_id: number;
    advogado_id: number;
    created_at: string;
    updated_at: string;
    advogado: { id: number; nome: string; numero_oab: string; uf_oab: string };
  }[];
}

/** Every lawyer of a communication once (a lawyer of two parties is addressed once). */
export function lawyersOf(c: Communication): LawyerRef[] {
  const seen = new Set<string>();
  const out: LawyerRef[] = [];
  for (const l of [...c.destinatarios.flatMap((d) => d.advogados), ...c.outrosAdvogados]) {
    const key = `${l.nome}|${l.uf}|${l.numero}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(l);
    }
  }
  return out;
}
