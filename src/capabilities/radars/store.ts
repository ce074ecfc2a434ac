/**
 * Radars and their results in the database (tables `radars` and `radar_results`, migration 0003).
 * Every read a route makes is scoped by account, so another account's radar is simply not found.
 * A result is unique per (radar, case): inserting it twice is a no-op, so two workers (or a cycle
 * and a `sincronizar`) can never report the same case twice.
 */
import { dueForCheck } from '../../platform/monitoring/checks.ts';
import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import type { DB, RadarResultsTable, RadarsTable } from '../../platform/db/schema.ts';
import { newId } from '../../platform/ids.ts';
import type { Correspondence } from './match.ts';

type Db = Kysely<DB> | Transaction<DB>;
type ResultsQuery = SelectQueryBuilder<DB, 'radar_results', RadarResultsTable>;

/** The fields PATCH may change. */
export type RadarFilterSet = Partial<
  Pick<RadarsTable, 'variacoes' | 'tribunais' | 'classes' | 'termos_obrigatorios' | 'termos_proibidos' | 'webhook_url' | 'frequencia'>
>;

export interface NewResult {
  numeroCnj: string;
  tribunal: string;
  classe: string | null;
  dataAjuizamento: string | null;
  correspondencias: Correspondence[];
}

export interface ResultFilters {
  arquivados?: boolean;
  qualificacao?: string;
}

/** `(encontrado_em, id)` of the last row of the previous page. */
export type ResultPosition = { e: string; id: string };

export class RadarStore {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async insert(trx: Db, row: RadarsTable): Promise<void> {
    await trx.insertInto('radars').values(row).execute();
  }

  /** The account's radar, or undefined (unknown, or another account's). */
  async get(accountId: string, id: string): Promise<RadarsTable | undefined> {
    return this.#db.selectFrom('radars').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  async byId(id: string, db: Db = this.#db): Promise<RadarsTable | undefined> {
    return db.selectFrom('radars').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Newest first; `before` is the (criado_em, id) of the last radar of the previous page. */
  async list(accountId: string, limit: number, before?: { c: string; id: string }): Promise<RadarsTable[]> {
    let q = this.#db.selectFrom('radars').selectAll().where('account_id', '=', accountId);
    if (before) q = q.where((eb) => eb.or([eb('criado_em', '<', before.c), eb.and([eb('criado_em', '=', before.c), eb('id', '<', before.id)])]));
    return q.orderBy('criado_em', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  async update(id: string, set: Partial<RadarsTable>, db: Db = this.#db): Promise<void> {
    await db.updateTable('radars').set(set).where('id', '=', id).execute();
  }

  /** ATIVO radars whose check is due, the most overdue first. */
  /** Records a completed check, conditional on the version read: a PATCH meanwhile (new filters, maybe a new baseline) keeps the radar due. */
  async checked(radar: Pick<RadarsTable, 'id' | 'atualizado_em'>, set: Partial<RadarsTable>): Promise<void> {
    await this.#db.updateTable('radars').set(set).where('id', '=', radar.id).where('atualizado_em', '=', radar.atualizado_em).execute();
  }

  async dueForCheck(now: string, limit: number): Promise<RadarsTable[]> {
    return dueForCheck<RadarsTable>(this.#db, 'radars', now, limit);
  }

  /** Takes the radar's synchronization slot when the last one is older than `notAfter`; false when too soon. */
  async claimSync(id: string, now: string, notAfter: string): Promise<boolean> {
    const r = await this.#db
      .updateTable('radars')
      .set({ ultima_sincronizacao_em: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('ultima_sincronizacao_em', 'is', null), eb('ultima_sincronizacao_em', '<=', notAfter)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  // ---- results ---------------------------------------------------------------------------------

  /** Numbers already reported by the radar (baseline included). */
  async resultNumbers(radarId: string): Promise<Set<string>> {
    const rows = await this.#db.selectFrom('radar_results').select('numero_cnj').where('radar_id', '=', radarId).execute();
    return new Set(rows.map((r) => r.numero_cnj));
  }

  /** Inserts a result once; true when this call created it (then the radar's count grows in the same transaction). */
  async insertResult(
    trx: Transaction<DB>,
    radar: Pick<RadarsTable, 'id' | 'account_id'>,
    r: NewResult,
    at: { now: string; baseline: boolean },
  ): Promise<string | null> {
    const id = newId('rrs');
    const inserted = await trx
      .insertInto('radar_results')
      .values({
        id,
        radar_id: radar.id,
        account_id: radar.account_id,
        numero_cnj: r.numeroCnj,
        tribunal: r.tribunal,
        classe: r.classe,
        data_ajuizamento: r.dataAjuizamento,
        correspondencias: JSON.stringify(r.correspondencias),
        linha_de_base: at.baseline ? 1 : 0,
        encontrado_em: at.now,
        dia: at.now.slice(0, 10),
        qualificacao: null,
        qualificacao_nota: null,
        qualificado_em: null,
        arquivado: 0,
        arquivado_em: null,
      })
      .onConflict((oc) => oc.columns(['radar_id', 'numero_cnj']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return null;
    await trx
      .updateTable('radars')
      .set((eb) => ({ resultados_total: eb('resultados_total', '+', 1) }))
      .where('id', '=', radar.id)
      .execute();
    return id;
  }

  /** A page of one radar's results, newest first. */
  async results(radarId: string, f: ResultFilters, limit: number, before?: ResultPosition): Promise<RadarResultsTable[]> {
    return this.#page(this.#db.selectFrom('radar_results').selectAll().where('radar_id', '=', radarId), f, limit, before);
  }

  /** A page of every result the account's radars found on one UTC day, newest first. */
  async resultsOfDay(accountId: string, dia: string, f: ResultFilters, limit: number, before?: ResultPosition): Promise<RadarResultsTable[]> {
    return this.#page(this.#db.selectFrom('radar_results').selectAll().where('account_id', '=', accountId).where('dia', '=', dia), f, limit, before);
  }

  async result(radarId: string, numeroCnj: string): Promise<RadarResultsTable | undefined> {
    return this.#db.selectFrom('radar_results').selectAll().where('radar_id', '=', radarId).where('numero_cnj', '=', numeroCnj).executeTakeFirst();
  }

  async qualify(resultId: string, set: Pick<RadarResultsTable, 'qualificacao' | 'qualificacao_nota' | 'qualificado_em'>): Promise<RadarResultsTable> {
    await this.#db.updateTable('radar_results').set(set).where('id', '=', resultId).execute();
    return this.#db.selectFrom('radar_results').selectAll().where('id', '=', resultId).executeTakeFirstOrThrow();
  }

  /** Archives or unarchives the account's results among `ids`; other ids are left alone. */
  async setArchived(accountId: string, ids: string[], archived: boolean, now: string): Promise<{ changed: number; found: number }> {
    const unique = [...new Set(ids)];
    return this.#db.transaction().execute(async (trx) => {
      const found = await trx
        .selectFrom('radar_results')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .where('id', 'in', unique)
        .executeTakeFirstOrThrow();
      const r = await trx
        .updateTable('radar_results')
        .set({ arquivado: archived ? 1 : 0, arquivado_em: archived ? now : null })
        .where('account_id', '=', accountId)
        .where('id', 'in', unique)
        .where('arquivado', '=', archived ? 0 : 1)
        .executeTakeFirst();
      return { changed: Number(r.numUpdatedRows), found: Number(found.n) };
    });
  }

  async #page(q: ResultsQuery, f: ResultFilters, limit: number, before?: ResultPosition): Promise<RadarResultsTable[]> {
    if (f.arquivados !== undefined) q = q.where('arquivado', '=', f.arquivados ? 1 : 0);
    if (f.qualificacao === 'SEM_QUALIFICACAO') q = q.where('qualificacao', 'is', null);
    else if (f.qualificacao) q = q.where('qualificacao', '=', f.qualificacao);
    if (before) q = q.where((eb) => eb.or([eb('encontrado_em', '<', before.e), eb.and([eb('encontrado_em', '=', before.e), eb('id', '<', before.id)])]));
    return q.orderBy('encontrado_em', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }
}
