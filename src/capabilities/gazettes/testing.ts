/**
 * What tests need of the gazettes: a recent business day, a day of the STF or of an electoral court
 * read into the store, and the shared route suite's fixtures (public data: the same for every account).
 */
import type { Harness } from '../../../test/harness.ts';
import { DAY_MS, iso } from '../../platform/clock.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';

/**
 * The last day strictly before today (Brasília) on which the sandbox's STF and TSE both published: found
 * in the simulators' data, not assumed from the calendar (weekends, holidays and Carnival have none).
 */
export function lastBusinessDay(h: Harness): string {
  const { stf, dje } = h.sources.sandbox!;
  const today = Date.parse(`${h.capabilities.gazettes.today()}T00:00:00Z`) / DAY_MS;
  for (let day = today - 1; day > today - 31; day--) {
    if (stf.gazette.day(day).length > 0 && dje.gazette.editions('TSE', day).length > 0) return iso(new Date(day * DAY_MS)).slice(0, 10);
  }
  throw new Error('the sandbox published no gazette in the last 30 days');
}

/** Reads `day` of `gazette` into the store (as a search of that day would). */
export async function ingestDay(h: Harness, gazette: string, day = lastBusinessDay(h)): Promise<string> {
  await h.capabilities.gazettes.ensure(gazette, { inicio: day, fim: day });
  return day;
}

async function storedId(h: Harness, fonte: string): Promise<string> {
  const row = await h.services.db.selectFrom('publications').select('id').where('fonte', '=', fonte).orderBy('id').executeTakeFirstOrThrow();
  return row.id;
}

export const routeFixtures: RouteFixtures = {
  owned: {
    '/v1/stf/publicacoes/:id': async (h) => {
      await ingestDay(h, 'STF');
      return { id: (await storedId(h, 'STF')).slice('STF:'.length) };
    },
    '/v1/dje-eleitoral/publicacoes/:id': async (h) => {
      await ingestDay(h, 'TSE');
      return { id: await storedId(h, 'DJE eleitoral') };
    },
    '/v1/dje-eleitoral/edicoes/:id/pdf': async (h) => {
      await ingestDay(h, 'TSE');
      const e = await h.services.db.selectFrom('gazette_editions').select('id').where('tribunal', '=', 'TSE').executeTakeFirstOrThrow();
      return { id: e.id };
    },
  },
  queries: { '/v1/dje-eleitoral/edicoes': () => 'tribunal=TSE' },
  publicData: ['/v1/stf/publicacoes/:id', '/v1/dje-eleitoral/publicacoes/:id', '/v1/dje-eleitoral/edicoes/:id/pdf'],
  files: ['/v1/dje-eleitoral/edicoes/:id/pdf'],
};
