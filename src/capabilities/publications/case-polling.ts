/**
 * Same-day news of monitored cases from DJEN (issue 43 item 3; DESIGN.md §5, "Freshness"): DataJud
 * lags the courts by days, DJEN publishes the courts' communications the day they are sent. Each case
 * monitor's number is a PROCESSO pattern of the publication matcher (monitor-index.ts), so whatever
 * ingests a communication of the case (a daily caderno, a publication monitor's query, a lawyer
 * lookup) announces it to the monitor as `diario_movimentacao_nova` in that same ingest. For the
 * cases no caderno covers, the publication cycle also asks DJEN by number: one query per distinct
 * number however many accounts follow it, at most once a day per number (the day DJEN dates a
 * communication), the least recently asked first, within the run's DJEN budget (cycle-budget.ts): a
 * number left over stays first in line. Each query reads from three days before the previous one
 * (DJEN backfills late) and its time is kept in `publication_syncs` (`diario:<number>`), so a failed
 * query is simply due again. Its failure is counted and named (observability/auxiliary.ts).
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { addMs, DAY_MS, iso } from '../../platform/clock.ts';
import { brasiliaDayBefore } from '../../platform/format.ts';
import { activeAccountIds } from '../../platform/monitoring/active-accounts.ts';
import { auxiliaryFailed } from '../../platform/observability/auxiliary.ts';
import type { Services } from '../../platform/services.ts';
import type { CycleBudget } from './cycle-budget.ts';
import { RECENT_DAYS } from './history.ts';
import type { PublicationIngest } from './ingest.ts';
import { BACKFILL_DAYS } from './polling.ts';

/** Pages of one case's query: a case has at most a few hundred communications in a few days. */
const MAX_PAGES = 5;

const syncKey = (numeroCnj: string) => `diario:${numeroCnj}`;

export interface CasePollSummary {
  /** Distinct numbers asked. */
  queries: number;
  failed: number;
  /** `diario_movimentacao_nova` events the answers brought (the ingest's). */
  events: number;
}

/**
 * The distinct numbers of live case monitors of courts no caderno covers, not asked of DJEN in the last
 * day, never asked first, then the longest ago; at most `limit`.
 */
async function dueNumbers(s: Services, now: Date, covered: ReadonlySet<string>, limit: number) {
  const rows = await s.db
    .selectFrom('case_monitors as m')
    .leftJoin('publication_syncs as p', (j) => j.on('p.chave', '=', sql<string>`${'diario:'} || m.numero_cnj`))
    .select(['m.numero_cnj', 'p.sincronizado_em'])
    .select((eb) => eb.fn.min('m.tribunal').as('tribunal'))
    .where('m.status', '=', 'ATIVO')
    .where('m.account_id', 'in', activeAccountIds(s.db))
    .$if(covered.size > 0, (q) => q.where('m.tribunal', 'not in', [...covered]))
    .where((eb) => eb.or([eb('p.sincronizado_em', 'is', null), eb('p.sincronizado_em', '<=', iso(addMs(now, -DAY_MS)))]))
    .groupBy(['m.numero_cnj', 'p.sincronizado_em'])
    .orderBy(sql`p.sincronizado_em is not null`)
    .orderBy('p.sincronizado_em')
    .orderBy('m.numero_cnj')
    .limit(limit)
    .execute();
  return rows;
}

/** One run of the publication cycle: its time, its DJEN budget, the courts whose caderno it has, its log. */
export interface CycleRun {
  now: Date;
  budget: CycleBudget;
  covered: ReadonlySet<string>;
  log: Logger;
}

/** Asks DJEN for the due monitored numbers within the run's budget and ingests the answers. */
export async function pollCaseNumbers(s: Services, ingest: PublicationIngest, { now, budget, covered, log }: CycleRun): Promise<CasePollSummary> {
  const summary: CasePollSummary = { queries: 0, failed: 0, events: 0 };
  const left = budget.max - budget.used;
  if (left <= 0) return summary;
  const source = s.sources.publications;
  for (const n of await dueNumbers(s, now, covered, left)) {
    if (!budget.take()) break;
    summary.queries++;
    const desde = n.sincronizado_em ? brasiliaDayBefore(new Date(n.sincronizado_em), BACKFILL_DAYS) : brasiliaDayBefore(now, RECENT_DAYS);
    try {
      const found = await source.search({ numeroCnj: n.numero_cnj, desde, ate: brasiliaDayBefore(now) }, { maxPages: MAX_PAGES });
      summary.events += (await ingest.ingest(found.items, source.info)).eventos;
    } catch (err) {
      budget.noteFailure(err);
      summary.failed++;
      auxiliaryFailed(log, { tribunal: n.tribunal, step: 'diario', err, retry: 'the number is asked again at the next cycle' });
      continue;
    }
    await s.db
      .insertInto('publication_syncs')
      .values({ chave: syncKey(n.numero_cnj), sincronizado_em: iso(now) })
      .onConflict((oc) => oc.column('chave').doUpdateSet({ sincronizado_em: iso(now) }))
      .execute();
  }
  return summary;
}
