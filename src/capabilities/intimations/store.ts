/**
 * The reads behind /v1/intimacoes: the stored publications naming some OABs (the `publication_lawyers`
 * index, newest first), and the account's intimação matches (`publication_matches`, what each monitor
 * found and whether it was notified).
 */
import type { Kysely } from 'kysely';
import type { DB, PublicationsTable } from '../../platform/db/schema.ts';
import type { DayRange } from './input.ts';
import { publicationsOfOab } from '../publications/parts.ts';

export type DayPosition = { data: string; id: string };

/**
 * DJEN's communications naming any of `oabs` within the range (and of one communication type), newest first, each once (the other gazettes' publications are
 * not intimações).
 */
export async function intimationsOf(
  db: Kysely<DB>,
  oabs: readonly string[],
  f: DayRange & { tipoComunicacao?: string; limit: number; before?: DayPosition },
): Promise<PublicationsTable[]> {
  return publicationsOfOab(db, oabs, { ...f, fonte: 'DJEN' });
}

/** Match time, publication id, monitor id of the last row of the previous page. */
export type MatchPosition = { c: string; p: string; m: string };

export interface IntimationMatch {
  monitor_id: string;
  publicacao_id: string;
  criado_em: string;
  evento_id: string | null;
  oab: string;
  publication: PublicationsTable;
}

/** The account's intimação matches, newest first; `oabs` and the range narrow them. */
export async function matchesOf(
  db: Kysely<DB>,
  accountId: string,
  f: DayRange & { oabs?: readonly string[]; limit: number; before?: MatchPosition },
): Promise<IntimationMatch[]> {
  let q = db
    .selectFrom('publication_matches as m')
    .innerJoin('publication_monitors as pm', 'pm.id', 'm.monitor_id')
    .innerJoin('publications as p', 'p.id', 'm.publicacao_id')
    .selectAll('p')
    .select(['m.monitor_id', 'm.publicacao_id', 'm.criado_em as match_criado_em', 'm.evento_id', 'pm.valor as monitor_valor'])
    .where('m.account_id', '=', accountId)
    .where('m.origem', '=', 'INTIMACOES');
  if (f.oabs) q = q.where('pm.valor', 'in', f.oabs);
  if (f.desde) q = q.where('m.data_disponibilizacao', '>=', f.desde);
  if (f.ate) q = q.where('m.data_disponibilizacao', '<=', f.ate);
  if (f.before) {
    const { c, p, m } = f.before;
    q = q.where((eb) =>
      eb.or([
        eb('m.criado_em', '<', c),
        eb.and([eb('m.criado_em', '=', c), eb('m.publicacao_id', '<', p)]),
        eb.and([eb('m.criado_em', '=', c), eb('m.publicacao_id', '=', p), eb('m.monitor_id', '<', m)]),
      ]),
    );
  }
  const rows = await q.orderBy('m.criado_em', 'desc').orderBy('m.publicacao_id', 'desc').orderBy('m.monitor_id', 'desc').limit(f.limit).execute();
  return rows.map(({ monitor_id, publicacao_id, match_criado_em, evento_id, monitor_valor, ...publication }) => ({
    monitor_id,
    publicacao_id,
    criado_em: match_criado_em,
    evento_id,
    oab: monitor_valor,
    publication: publication as PublicationsTable,
  }));
}

/** The first delivery of each event to its monitor (not a resend), keyed `<event id>|<monitor id>`. */
export async function deliveriesOf(
  db: Kysely<DB>,
  pairs: readonly { eventId: string; monitorId: string }[],
): Promise<Map<string, { id: string; status: string }>> {
  const out = new Map<string, { id: string; status: string }>();
  if (pairs.length === 0) return out;
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'monitor_id', 'status'])
    .where(
      'event_id',
      'in',
      pairs.map((p) => p.eventId),
    )
    .where('resent_from', 'is', null)
    .orderBy('id')
    .execute();
  const wanted = new Set(pairs.map((p) => `${p.eventId}|${p.monitorId}`));
  for (const r of rows) {
    const key = `${r.event_id}|${r.monitor_id}`;
    if (wanted.has(key) && !out.has(key)) out.set(key, { id: r.id, status: r.status });
  }
  return out;
}
