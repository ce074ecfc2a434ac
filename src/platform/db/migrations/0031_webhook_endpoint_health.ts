/**
 * Webhook endpoint health (issue 55 item 7). `webhook_endpoints` holds a row only for an endpoint (an
 * account and the URL a delivery went to: the account URL or a monitor's `webhook_url`) whose last
 * attempt failed: since when it has failed without a success, and when it was disabled for failing
 * through the whole TRAMITA_WEBHOOK_DISABLE_AFTER_MS. `webhook_held_deliveries` names the deliveries kept
 * (status RETIDA, nothing sent) while their endpoint is disabled, so re-enabling finds them without an
 * index on the deliveries' status (which would cost every delivery's updates on PostgreSQL).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // The first failed attempt since the last success (a success deletes the row of an enabled endpoint).
    .addColumn('failing_since', 'text', (c) => c.notNull())
    .addColumn('last_failure_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    // Set when the endpoint had failed for the whole period; cleared (the row deleted) by re-enabling.
    .addColumn('disabled_at', 'text')
    .addPrimaryKeyConstraint('webhook_endpoints_pk', ['account_id', 'url'])
    .execute();
  await db.schema
    .createTable('webhook_held_deliveries')
    .addColumn('delivery_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('held_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_held_deliveries_endpoint').on('webhook_held_deliveries').columns(['account_id', 'url', 'delivery_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_held_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
