/**
 * The checks every monitor kind shares (case, administrative and publication monitors, radars): which
 * are due, and, for the kinds that count their checks and keep a situation (case and administrative
 * monitors), the completion of one. Each kind's own check (what it asks, what it records) stays beside it.
 */
import type { Kysely, Transaction } from 'kysely';
import { addMs, iso } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { activeAccountIds } from './active-accounts.ts';
import type { MonitorFrequency } from '../db/schema.ts';
import { frequencyMs } from './frequency.ts';
import { inLists } from '../db/in-lists.ts';
import { SourceError } from '../ports/source-error.ts';
import { paidMonitors, type PaidMonitorRow, type PaidMonitorTable } from './tables.ts';

/** ATIVO monitors of `table` (of active accounts) whose check is due by `now`, the most overdue first. */
export async function dueForCheck<R extends PaidMonitorRow>(db: Kysely<DB>, table: PaidMonitorTable, now: string, limit: number): Promise<R[]> {
  const rows = await dueBy(db, table, 'proxima_verificacao_em', now).selectAll().limit(limit).execute();
  return rows as R[];
}

/**
 * ATIVO monitors of `table` (of active accounts) whose `column` (an ISO instant: the next check, or a
 * case monitor's next court-page read) is due by `now`, the most overdue first; the caller selects.
 */
export function dueBy(db: Kysely<DB>, table: PaidMonitorTable, column: 'proxima_verificacao_em' | 'proxima_pagina_em', now: string) {
  return paidMonitors(db)
    .selectFrom(table)
    .where('status', '=', 'ATIVO')
    .where(column, '<=', now)
    .where('account_id', 'in', activeAccountIds(db))
    .orderBy(column)
    .orderBy('id');
}

/**
 * What every kind's completed check writes: checked now, the next check `nextInMs` from now, no error.
 * Each kind adds its own condition (the row as read, its version) and its own columns.
 */
export function checkCompleted(now: Date, nextInMs: number) {
  return { ultima_verificacao_em: iso(now), proxima_verificacao_em: iso(addMs(now, nextInMs)), ultimo_erro: null };
}

/** The monitor kinds whose rows count their checks (`verificacoes`) and keep what the last one found (`situacao`). */
export type CountedCheckTable = 'case_monitors' | 'administrative_monitors';

/**
 * Records a completed check of `m`: its situation, one more check (and `novidades` more news, for a
 * kind that counts them), no error, the next check one frequency from `now`. Conditional on the row
 * as it was read (ATIVO, the same next check): false when it changed meanwhile (removed, suspended,
 * or checked by another run), and then nothing is written.
 */
export async function recordCheck(
  db: Kysely<DB> | Transaction<DB>,
  table: CountedCheckTable,
  m: Pick<PaidMonitorRow, 'id' | 'proxima_verificacao_em'> & { frequencia: MonitorFrequency },
  found: { situacao: 'ENCONTRADO' | 'NAO_ENCONTRADO'; novidades?: number },
  now: Date,
  intervalMs: number,
): Promise<boolean> {
  const done = await paidMonitors(db)
    .updateTable(table)
    .set((eb) => ({
      situacao: found.situacao,
      verificacoes: eb('verificacoes', '+', 1),
      ...(found.novidades === undefined ? {} : { novidades: eb('novidades', '+', found.novidades) }),
      ...checkCompleted(now, frequencyMs(m.frequencia, intervalMs)),
      atualizado_em: iso(now),
    }))
    .where('id', '=', m.id)
    .where('status', '=', 'ATIVO')
    .where('proxima_verificacao_em', '=', m.proxima_verificacao_em)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/**
 * A check of counted-check monitors that did not complete (the source failed, or storage did): they
 * stay due, so the next cycle tries again, and `ultimo_erro` says why, naming the source and how it
 * failed, never internals.
 */
export async function recordFailedCheck(db: Kysely<DB>, table: CountedCheckTable, monitors: readonly { id: string }[], err: unknown, now: Date): Promise<void> {
  const message = failedCheckMessage(err, now);
  for (const part of inLists(monitors.map((m) => m.id))) {
    await paidMonitors(db)
      .updateTable(table)
      .set({ ultimo_erro: message, atualizado_em: iso(now) })
      .where('id', 'in', part)
      .where('status', '=', 'ATIVO')
      .execute();
  }
}

/** `ultimo_erro` of a check that did not complete: the source and how it failed (a geoblock said plainly), never internals. */
export function failedCheckMessage(err: unknown, now: Date): string {
  const what =
    err instanceof SourceError
      ? err.failure === 'geoblocked'
        ? `${err.source} refused this server's country (it answers only from Brazil)`
        : `${err.source} failed (${err.failure})`
      : 'an internal error interrupted it';
  return `The check of ${iso(now)} did not complete: ${what}. It is tried again at the next cycle.`;
}
