/**
 * What the publication cycle reads and writes of the monitors it asks DJEN for: the publication
 * monitors' check marks (polling.ts), and the case monitors' numbers due for their DJEN ask
 * (case-polling.ts: which numbers, how many, how many asks a period they need).
 */
import { sql, type Kysely } from 'kysely';
import { iso } from '../../platform/clock.ts';
import { inLists } from '../../platform/db/in-lists.ts';
import type { DB, PublicationMonitorsTable } from '../../platform/db/schema.ts';
import { activeAccountIds } from '../../platform/monitoring/active-accounts.ts';
import { FREQUENCIES, FREQUENCY_UNITS } from '../../platform/monitoring/frequency.ts';

/** Sets `set` on the ATIVO publication monitors among `ids` (a check completed, or failed). */
export async function markMonitorChecks(
  db: Kysely<DB>,
  ids: readonly string[],
  set: Partial<Pick<PublicationMonitorsTable, 'ultima_verificacao_em' | 'proxima_verificacao_em' | 'ultimo_erro'>>,
): Promise<void> {
  for (const list of inLists(ids)) {
    await db.updateTable('publication_monitors').set(set).where('id', 'in', list).where('status', '=', 'ATIVO').execute();
  }
}

/** The live case monitors (of active accounts) of courts no caderno covers: the ones whose numbers are asked of DJEN. */
function askingMonitors(db: Kysely<DB>, covered: ReadonlySet<string>) {
  return db
    .selectFrom('case_monitors as m')
    .where('m.status', '=', 'ATIVO')
    .where('m.account_id', 'in', activeAccountIds(db))
    .$if(covered.size > 0, (q) => q.where('m.tribunal', 'not in', [...covered]));
}

/** Those whose number's DJEN ask is due by `now`. */
const dueMonitors = (db: Kysely<DB>, now: Date, covered: ReadonlySet<string>) => askingMonitors(db, covered).where('m.proxima_diario_em', '<=', iso(now));

/** Up to `limit` distinct due numbers, the least recently asked first (never asked first). */
export async function dueNumbers(db: Kysely<DB>, now: Date, covered: ReadonlySet<string>, limit: number) {
  return dueMonitors(db, now, covered)
    .leftJoin('publication_syncs as p', (j) => j.on('p.chave', '=', sql<string>`${'diario:'} || m.numero_cnj`))
    .select(['m.numero_cnj', 'p.sincronizado_em'])
    .select((eb) => eb.fn.min('m.tribunal').as('tribunal'))
    .groupBy(['m.numero_cnj', 'p.sincronizado_em'])
    .orderBy(sql`p.sincronizado_em is not null`)
    .orderBy('p.sincronizado_em')
    .orderBy('m.numero_cnj')
    .limit(limit)
    .execute();
}

/** How many distinct numbers are due by `now`. */
export async function dueCount(db: Kysely<DB>, now: Date, covered: ReadonlySet<string>): Promise<number> {
  const row = await dueMonitors(db, now, covered)
    .select((eb) => eb.fn.count<number | string>('m.numero_cnj').distinct().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Asks the monitored numbers need in one HORARIA period: each number once per the shortest period among
 * its live monitors, so H + D/24 + S/168 + M/720 for H numbers followed hourly at best, D daily… (one
 * scan of the live monitors).
 */
export async function asksNeededPerPeriod(db: Kysely<DB>, covered: ReadonlySet<string>): Promise<number> {
  const units = sql<number>`min(case m.frequencia ${sql.join(
    // Literals: PostgreSQL would type parameters here as text, and min() would then compare them as text.
    FREQUENCIES.map((f) => sql`when ${sql.lit(f)} then ${sql.lit(FREQUENCY_UNITS[f])}`),
    sql` `,
  )} end)`;
  const perNumber = askingMonitors(db, covered)
    .select(['m.numero_cnj', units.as('unidades')])
    .groupBy('m.numero_cnj');
  const rows = await db
    .selectFrom(perNumber.as('n'))
    .select(['n.unidades', (eb) => eb.fn.countAll<number | string>().as('numeros')])
    .groupBy('n.unidades')
    .execute();
  return rows.reduce((sum, r) => sum + Number(r.numeros) / Number(r.unidades), 0);
}
