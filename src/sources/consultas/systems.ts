/** Which client reads each system (a ConsultaClientFactory per system, client.ts), and which searches each offers. */
import type { CourtSearchKind } from '../../platform/ports/case-details.ts';
import type { ConsultaClientFactory } from './client.ts';
import type { ConsultaSystem } from './record.ts';
import { createEsajClient } from './esaj/client.ts';
import { createTjdftClient } from './tjdft/client.ts';
import { createPjeClient } from './pje/factory.ts';

export const CLIENT_FACTORIES: Record<ConsultaSystem, ConsultaClientFactory> = {
  esaj: createEsajClient,
  tjdft: createTjdftClient,
  pje: createPjeClient,
};

export const SYSTEM_LABELS: Record<ConsultaSystem, string> = { esaj: 'e-SAJ', pje: 'PJe consulta pública', tjdft: 'TJDFT consulta pública' };

/**
 * The searches each system's public consultation offers and Tramita asks (issue 32), the one table
 * the searches and docs/coverage.md read:
 * - e-SAJ: `cbPesquisa` DOCPARTE, NMPARTE (with `chNmCompleto`), NUMOAB (README §2, the TJMS form);
 * - PJe classic: form fPP's `documentoParte` and `numeroOAB` + letter + `estadoComboOAB` (README §1,
 *   pje-tjma-listView.html). Its `nomeParte` exists too but is not asked: the issue scopes PJe to
 *   document and OAB, and TJMA caps every answer at 30 hits, which a common name fills with strangers;
 * - TJDFT's REST: only `numeroProcesso` is documented (README §4), so no search.
 */
export const CONSULTA_SEARCHES: Readonly<Record<ConsultaSystem, readonly CourtSearchKind[]>> = Object.freeze({
  esaj: Object.freeze(['documento', 'nome', 'oab'] as const),
  pje: Object.freeze(['documento', 'oab'] as const),
  tjdft: Object.freeze([] as const),
});

/** A search as `/v1/integrador` and docs/coverage.md name it: by CPF/CNPJ, by a party's name, by a lawyer's OAB. */
export type ConsultaSearch = 'cpf_cnpj' | 'nome' | 'oab';

const SEARCH_NAMES: Record<CourtSearchKind, ConsultaSearch> = { documento: 'cpf_cnpj', nome: 'nome', oab: 'oab' };

/**
 * What each system's pages give beyond parties, lawyers and movement texts: whether they print the case
 * value, and which searches Tramita asks them (from CONSULTA_SEARCHES, the one table of searches).
 */
export const SYSTEM_OFFERS: Record<ConsultaSystem, { valor: boolean; buscas: readonly ConsultaSearch[] }> = {
  esaj: { valor: true, buscas: CONSULTA_SEARCHES.esaj.map((k) => SEARCH_NAMES[k]) },
  pje: { valor: false, buscas: CONSULTA_SEARCHES.pje.map((k) => SEARCH_NAMES[k]) },
  tjdft: { valor: false, buscas: CONSULTA_SEARCHES.tjdft.map((k) => SEARCH_NAMES[k]) },
};

/** How messages and each party's `fonte` name a court's consultation: `e-SAJ TJSP`, `PJe consulta pública TJMA`, `TJDFT consulta pública`. */
export function consultaLabel(court: { sigla: string; sistema: ConsultaSystem }): string {
  const system = SYSTEM_LABELS[court.sistema];
  return system.includes(court.sigla) ? system : `${system} ${court.sigla}`;
}
