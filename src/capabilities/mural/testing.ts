/** The shared route suite's fixtures for the mural: a posting of the sandbox's board (public data, through the sandbox provider). */
import type { Harness } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { DJE_COURTS } from '../../sandbox/dje/editions.ts';

/** A posting of the sandbox's board in the last days: its id and its first party. */
export function boardItem(h: Harness): { id: string; parte: string; tribunal: string } {
  const board = h.sources.sandbox!.mural;
  const today = Math.floor(Date.parse(h.capabilities.gazettes.today()) / 86_400_000);
  for (let day = today; day > today - 7; day--) {
    for (const t of DJE_COURTS) {
      const [item] = board.day(t, day);
      if (item) return { id: item.id, parte: item.partes[0].nome, tribunal: t };
    }
  }
  throw new Error('the sandbox board posted nothing in a week');
}

export const routeFixtures: RouteFixtures = {
  owned: { '/v1/mural-eleitoral/publicacoes/:id/:documentKind': async (h) => ({ id: boardItem(h).id, documentKind: 'documento' }) },
  queries: { '/v1/mural-eleitoral/publicacoes': (h) => `parte=${encodeURIComponent(boardItem(h).parte)}` },
  publicData: ['/v1/mural-eleitoral/publicacoes/:id/:documentKind'],
  files: ['/v1/mural-eleitoral/publicacoes/:id/:documentKind'],
};
