/**
 * Row types of every table, for Kysely. Timestamps are ISO-8601 UTC text on both engines (they sort
 * as text and come from the injected clock); JSON columns are text; booleans are 0/1 integers.
 */
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  plan: string;
  status: 'active' | 'inactive';
  balance_centavos: number;
  sandbox: number;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface LedgerTable {
  id: string;
  account_id: string;
  kind: 'debit' | 'credit';
  delta_centavos: number;
  balance_after_centavos: number;
  operation_id: string | null;
  query_type: string | null;
  search_log_id: string | null;
  note: string | null;
  created_at: string;
}

export interface SearchLogsTable {
  id: string;
  account_id: string;
  request_id: string;
  query_type: string;
  method: string;
  path: string;
  status_code: number;
  charged_centavos: number;
  created_at: string;
}

export interface AsyncRequestsTable {
  id: string;
  account_id: string;
  method: string;
  path: string;
  status: 'running' | 'done';
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  /** 'utf8' for text bodies, 'base64' for binary ones (PDFs, downloads). */
  response_encoding: 'utf8' | 'base64' | null;
  created_at: string;
  completed_at: string | null;
  expires_at: string;
  lease_until: string | null;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  fingerprint: string;
  status: 'running' | 'done';
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  /** 'utf8' for text bodies, 'base64' for binary ones (PDFs, downloads). */
  response_encoding: 'utf8' | 'base64' | null;
  created_at: string;
  expires_at: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  run_at: string;
  attempts: Generated<number>;
  max_attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  dedupe_key: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger: LedgerTable;
  search_logs: SearchLogsTable;
  async_requests: AsyncRequestsTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
}
