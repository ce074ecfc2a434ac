/** DataJud's retry values (datajud.md §11); the schedule itself is sources/http/backoff.ts. */
import type { RetryPolicy } from '../http/backoff.ts';

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseMs: 500, capMs: 8_000, maxRetryAfterMs: 60_000 };
