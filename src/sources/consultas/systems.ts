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

export const SYSTEM_LABELS: Record<ConsultaSystem, string> = { esaj: 'e-SAJ', pje: 'PJe consulta pública', tjdft: 'TJDFT consulta pública' };
