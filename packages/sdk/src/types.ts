/** The options and results the client and the generated methods share. */

export interface ClientOptions {
  /** Where Tramita answers, e.g. `https://tramita.example.com.br` or `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The account's API key (sent as `x-api-key`). */
  apiKey: string;
  /** A `fetch` of your own (tests, proxies); the platform's by default. */
  fetch?: typeof fetch;
  /**
   * How many times a request is sent again after a network failure or a 429/502/503/504 (default 2).
   * Only requests that cannot be charged twice are: free reads, and every charged or writing call,
   * which carries an Idempotency-Key.
   */
  retries?: number;
  /** `en` for English error messages; Portuguese otherwise. */
  language?: 'pt' | 'en';
  /** How long to keep polling a pending (202) answer, unless a call says otherwise (default 5 minutes). */
  waitMs?: number;
}

export interface PendingInfo {
  /** Keep it: `client.resume(requestId)` fetches the answer later, without running or charging again. */
  requestId: string;
  /** The status URL (the 202's `Location`). */
  statusUrl: string;
}

export interface CallOptions {
  /** Replaces the generated Idempotency-Key (e.g. your own order id, to survive a restart of your process). */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Ask for the 202 at once (`Prefer: respond-async`) instead of waiting the synchronous window. */
  respondAsync?: boolean;
  /** Called once, as soon as the answer is pending, before any poll. */
  onPending?: (pending: PendingInfo) => void;
  /** Give up polling after this many milliseconds (default: the client's `waitMs`). */
  waitMs?: number;
  /** Give up polling after this many polls (default 120). */
  maxPolls?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/** A file answer (a PDF, a document): its bytes and type. */
export interface FileResult {
  bytes: Uint8Array;
  contentType: string;
  /** From Content-Disposition, when the server names the file. */
  filename: string | null;
}
