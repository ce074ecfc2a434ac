/** The shared route suite's fixtures for administrative processes: a sandbox NUP, and a monitor owned by the account. */
import type { Harness } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';

export function sandboxNups(h: Harness): { encontrado: string; naoEncontrado: string } {
  return h.sources.sandbox!.protocolo.examples();
}

export const routeFixtures: RouteFixtures = {
  owned: {
    '/v1/processos/administrativos/nup/:nup': async (h) => ({ nup: sandboxNups(h).encontrado }),
    '/v1/monitoramentos/processos-administrativos/:id': async (h, owner) => {
      const res = await h.inject({ method: 'POST', url: '/v1/monitoramentos/processos-administrativos', headers: owner.headers, payload: { nup: sandboxNups(h).encontrado } });
      if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`administrative monitor fixture: ${res.statusCode} ${res.body}`);
      return { id: (JSON.parse(res.body) as { data: { id: string } }).data.id };
    },
  },
  bodies: {
    'POST /v1/monitoramentos/processos-administrativos': (h) => ({ nup: sandboxNups(h).encontrado }),
    'POST /v1/processos/administrativos/nup/:nup': () => ({}),
  },
  publicData: ['/v1/processos/administrativos/nup/:nup', '/v1/orgaos-administrativos'],
};
