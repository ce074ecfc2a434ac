/** Accounts, keys, credits ledger, async requests, idempotency keys and the durable jobs table. */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'inactive')`))
    // The last line of defence of "the balance never goes negative"; the debit is also conditional.
    .addColumn('balance_centavos', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`balance_centavos >= 0`))
    .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('search_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('query_type', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('charged_centavos', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_logs_account').on('search_logs').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('debit', 'credit')`))
    .addColumn('delta_centavos', 'bigint', (c) => c.notNull())
    .addColumn('balance_after_centavos', 'bigint', (c) => c.notNull())
    .addColumn('operation_id', 'text')
    .addColumn('query_type', 'text')
    .addColumn('search_log_id', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One operation is charged at most once, whatever retries, polls or replays happen.
    .addUniqueConstraint('ledger_one_charge_per_operation', ['account_id', 'operation_id'])
    .execute();
  await db.schema.createIndex('ledger_account_time').on('ledger').columns(['account_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('async_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addColumn('response_encoding', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // Renewed by the process running the operation; once it lapses, the operation is interrupted.
    .addColumn('lease_until', 'text')
    .execute();
  await db.schema.createIndex('async_requests_running').on('async_requests').columns(['status', 'lease_until']).execute();
  await db.schema.createIndex('async_requests_expiry').on('async_requests').column('expires_at').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addColumn('response_encoding', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'running', 'done', 'failed')`))
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('dedupe_key', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Claim order: due pending jobs, and running jobs whose lease ended (their worker died).
  await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();
  // A dedupe key is unique among live jobs only, so the same work can be queued again once done.
  await db.schema
    .createIndex('jobs_live_dedupe')
    .on('jobs')
    .column('dedupe_key')
    .unique()
    .where(sql.ref('status'), 'in', sql`('pending', 'running')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['jobs', 'idempotency_keys', 'async_requests', 'ledger', 'search_logs', 'api_keys', 'accounts']) {
    await db.schema.dropTable(t).execute();
  }
}
