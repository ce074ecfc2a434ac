/** GET /v1/requests lists an account's pending and finished operations newest first: an index that reads them so. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('async_requests_account').on('async_requests').columns(['account_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('async_requests_account').execute();
}
