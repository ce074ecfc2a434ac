/**
 * Which client reads each system. The PJe classic client is written apart (src/sources/consultas/pje/,
 * issue 31): until it is merged, PJe courts answer `unavailable` with that reason. To plug it in,
 * replace `pje: pjeNotYet` with the PJe branch's factory (a ConsultaClientFactory, client.ts).
 */
import type { ConsultaClientFactory } from './client.ts';
import type { ConsultaSystem } from './record.ts';
import { createEsajClient } from './esaj/client.ts';
import { createTjdftClient } from './tjdft/client.ts';

const pjeNotYet: ConsultaClientFactory = (ctx) => ({
  fetchCase() {
    return Promise.reject(ctx.http.session(ctx.source, ctx.label).fail('unavailable', 'the PJe consulta pública client is not part of this build yet'));
  },
});

export const CLIENT_FACTORIES: Record<ConsultaSystem, ConsultaClientFactory> = {
  esaj: createEsajClient,
  tjdft: createTjdftClient,
  pje: pjeNotYet,
};

export const SYSTEM_LABELS: Record<ConsultaSystem, string> = { esaj: 'e-SAJ', pje: 'PJe consulta pública', tjdft: 'TJDFT consulta pública' };
