/**
 * Where each field of a court's cases comes from in this deployment, and which searches reach it
 * (issue 32): the answer `GET /v1/integrador` gives per court (`origens`, and `cobertura`, its
 * summary). sources/coverage.ts computes it from the configuration's tables; capabilities read it here.
 */
import type { Court } from '../courts/table.ts';

/** A court's public consultation: read by Tramita (`aberta`), behind a challenge never passed, or not surveyed. */
export type ConsultaState = 'aberta' | 'captcha' | 'anti_bot' | 'login' | 'desconhecida';

export interface CourtCoverage {
  tribunal: string;
  /** The consultation's system (`e-SAJ`, `PJe consulta pública`, `eproc`…); null when not surveyed. */
  sistema: string | null;
  consulta: ConsultaState;
  /** The consultation is read by this deployment (TRAMITA_CONSULTAS). */
  consultaHabilitada: boolean;
  nota: string | null;
  /** Per field, the sources that give it, in the order they are asked. */
  campos: { capa: string[]; movimentos: string[]; textosMovimentos: string[]; partes: string[]; advogados: string[]; valor: string[]; documentos: string[] };
  /** Per search, what it reaches for this court's cases. */
  buscas: { tipo: 'cpf_cnpj' | 'nome' | 'oab'; fontes: string[] }[];
}

export interface CoverageSource {
  /** This deployment's coverage of `court`, for its configuration as it is now. */
  court(court: Court): CourtCoverage;
}

/**
 * The summary of a court's coverage (`cobertura` of `GET /v1/integrador`): the sources that give any
 * field of its cases, in the order first asked, and the fields some source gives. Read from the
 * coverage itself, so it says what `origens` says.
 */
export function coverageSummary(c: CourtCoverage): { fontes: string[]; recursos: string[] } {
  const fields = Object.entries(c.campos).filter(([, names]) => names.length > 0);
  return { fontes: [...new Set(fields.flatMap(([, names]) => names))], recursos: fields.map(([field]) => field) };
}
