/**
 * STF days read before their edition was out (issue 30): the STF divulges an item on one day and
 * publishes it in a later edition (`publicacao` null until then, reference/upstream/real/README.md §6),
 * so a day read while some of its items were unpublished is read again once `/ultimo-dje` (the last
 * edition) moves past the one it said at that read. `aguardando_edicao` keeps that day; null when every
 * item had its publication day (and for the electoral gazettes, whose editions are the publication).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('gazette_days').addColumn('aguardando_edicao', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('gazette_days').dropColumn('aguardando_edicao').execute();
}
