/** The shared route suite's fixtures for warrants: a sandbox CPF with a warrant (public data: the same answer for every account). */
import type { Harness } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';

export function warrantCpfs(h: Harness): { comMandado: string; semMandado: string } {
  const ex = h.sources.sandbox!.warrants.examples();
  if (!ex.comMandado || !ex.semMandado) throw new Error('the sandbox has no example CPFs for warrants');
  return { comMandado: ex.comMandado, semMandado: ex.semMandado };
}

export const routeFixtures: RouteFixtures = {
  queries: { '/v1/mandados': (h) => `cpf=${warrantCpfs(h).comMandado}` },
};
