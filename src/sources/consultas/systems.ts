/** Which client reads each system (a ConsultaClientFactory per system, client.ts). */
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

/** A search a court's consultation can answer: by CPF/CNPJ, by a party's name, by a lawyer's OAB. */
export type ConsultaSearch = 'cpf_cnpj' | 'nome' | 'oab';

/**
 * What each system's pages give beyond parties, lawyers and movement texts: whether they print the case
 * value, and which searches Tramita asks them (none yet: the searches that reach the courts fill this,
 * and docs/coverage.md and `/v1/integrador` follow).
 */
export const SYSTEM_OFFERS: Record<ConsultaSystem, { valor: boolean; buscas: readonly ConsultaSearch[] }> = {
  esaj: { valor: true, buscas: [] },
  pje: { valor: false, buscas: [] },
  tjdft: { valor: false, buscas: [] },
};

export const SYSTEM_LABELS: Record<ConsultaSystem, string> = { esaj: 'e-SAJ', pje: 'PJe consulta pública', tjdft: 'TJDFT consulta pública' };

/** How messages and each party's `fonte` name a court's consultation: `e-SAJ TJSP`, `PJe consulta pública TJMA`, `TJDFT consulta pública`. */
export function consultaLabel(court: { sigla: string; sistema: ConsultaSystem }): string {
  const system = SYSTEM_LABELS[court.sistema];
  return system.includes(court.sigla) ? system : `${system} ${court.sigla}`;
}
