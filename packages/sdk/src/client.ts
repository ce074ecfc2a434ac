/**
 * The client: one method per operation (generated.ts), and the rules that keep a paid call from being
 * repeated (spec §1 rule 4):
 * - every charged or writing call carries an Idempotency-Key (the caller's, or a random one), and a
 *   retry after a network failure or a 429/502/503/504 resends the same key, so the server replays the
 *   first answer instead of charging again; free reads are retried as they are; nothing else is;
 * - a 202 is never answered by sending the call again: its status URL is polled (free, spec §3.2) as
 *   `Retry-After`, `pollAfterMs` and `nextPollAt` say, until a deadline, and `onPending` hands the
 *   `requestId` over at once so a caller that gives up can `resume` it later;
 * - the API key only ever goes to `baseUrl`'s origin, whatever a status URL says.
 */
import { TramitaError, TramitaPendingError } from './errors.ts';
import { OPERATIONS, OperationMethods, type OperationId, type Operations } from './generated.ts';
import type { CallOptions, ClientOptions, FileResult, PendingInfo } from './types.ts';

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** A 429 asking for longer than this is returned to the caller rather than slept on inside a call. */
const MAX_RETRY_WAIT_MS = 30_000;
const DEFAULT_WAIT_MS = 5 * 60_000;
const DEFAULT_MAX_POLLS = 120;
const DEFAULT_POLL_MS = 1_000;

interface Outgoing {
  method: string;
  url: URL;
  body?: unknown;
  idempotencyKey?: string;
  /** Whether sending it again cannot charge twice. */
  retryable: boolean;
  prefer?: string;
}

export class Tramita extends OperationMethods {
  readonly #base: URL;
  readonly #apiKey: string;
  readonly #fetch: typeof fetch;
  readonly #retries: number;
  readonly #language: 'pt' | 'en' | undefined;
  readonly #waitMs: number;

  constructor(options: ClientOptions) {
    super();
    if (!options?.baseUrl) throw new TypeError('Tramita: informe baseUrl (ex.: http://127.0.0.1:3000).');
    if (!options.apiKey) throw new TypeError('Tramita: informe apiKey (a chave da conta).');
    this.#base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#retries = Math.max(0, options.retries ?? 2);
    this.#language = options.language;
    this.#waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  }

  protected async call<K extends OperationId>(
    operation: K,
    params: Operations[K]['params'] | undefined,
    options: CallOptions = {},
  ): Promise<Operations[K]['result']> {
    const op = OPERATIONS[operation];
    const writes = op.method !== 'GET';
    const idempotencyKey = op.charged || writes ? (options.idempotencyKey ?? crypto.randomUUID()) : options.idempotencyKey;
    const { url, body } = this.#target(op.path, (params ?? {}) as Record<string, unknown>);
    const res = await this.#send(
      {
        method: op.method,
        url,
        body,
        idempotencyKey,
        retryable: idempotencyKey !== undefined || !op.charged,
        prefer: options.respondAsync ? 'respond-async' : undefined,
      },
      options,
    );
    return (await this.#outcome(res, options)) as Operations[K]['result'];
  }

  /**
   * The answer of a call that was pending (its `requestId`, from `onPending` or a TramitaPendingError):
   * polls its status URL, which replays the final answer without running or charging it again.
   */
  async resume<T = unknown>(requestId: string, options: CallOptions = {}): Promise<T> {
    const pending = { requestId, statusUrl: this.#statusUrl(requestId).href };
    return (await this.#poll(pending, 0, options)) as T;
  }

  /** The URL of an operation's path with its parameters, and the JSON body. */
  #target(template: string, params: Record<string, unknown>): { url: URL; body?: unknown } {
    const used = new Set<string>();
    const filled = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      used.add(name);
      const value = params[name];
      if (value === undefined || value === null || value === '') throw new TypeError(`Tramita: o parâmetro "${name}" é obrigatório.`);
      return encodeURIComponent(String(value));
    });
    const url = new URL(filled.replace(/^\//, ''), this.#base);
    for (const [name, value] of Object.entries(params)) {
      if (name === 'body' || used.has(name) || value === undefined || value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(v));
    }
    return { url, body: params.body };
  }

  /** The status URL of a request on this client's server (never another origin: the key goes with it). */
  #statusUrl(requestId: string, given?: string | null): URL {
    if (given) {
      const url = new URL(given, this.#base);
      if (url.origin === this.#base.origin) return url;
    }
    return new URL(`v1/requests/${encodeURIComponent(requestId)}`, this.#base);
  }

  async #send(out: Outgoing, options: CallOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-api-key': this.#apiKey, ...options.headers };
    if (this.#language) headers['accept-language'] = this.#language;
    if (out.body !== undefined) headers['content-type'] = 'application/json';
    if (out.idempotencyKey) headers['idempotency-key'] = out.idempotencyKey;
    if (out.prefer) headers.prefer = out.prefer;
    const init: RequestInit = { method: out.method, headers, body: out.body === undefined ? undefined : JSON.stringify(out.body), signal: options.signal };
    for (let attempt = 0; ; attempt++) {
      const last = !out.retryable || attempt >= this.#retries;
      let res: Response;
      try {
        res = await this.#fetch(out.url, init);
      } catch (err) {
        if (last || options.signal?.aborted) throw err;
        await sleep(backoffMs(attempt), options.signal);
        continue;
      }
      if (last || !RETRY_STATUSES.has(res.status)) return res;
      const waitMs = retryAfterMs(res) ?? backoffMs(attempt);
      if (waitMs > MAX_RETRY_WAIT_MS) return res;
      await res.body?.cancel();
      await sleep(waitMs, options.signal);
    }
  }

  async #outcome(res: Response, options: CallOptions): Promise<unknown> {
    if (res.status !== 202) return finalAnswer(res);
    const body = (await res.json().catch(() => ({}))) as PendingBody;
    const requestId = body.data?.requestId ?? body.meta?.requestId;
    if (!requestId) throw new TramitaError({ code: 'INVALID_PENDING_RESPONSE', message: 'Resposta 202 sem requestId.', status: 202, requestId: null });
    const pending: PendingInfo = { requestId, statusUrl: this.#statusUrl(requestId, res.headers.get('location') ?? body.data?.statusUrl).href };
    options.onPending?.(pending);
    return this.#poll(pending, pollWaitMs(res, body), options);
  }

  async #poll(pending: PendingInfo, firstWaitMs: number, options: CallOptions): Promise<unknown> {
    const deadline = Date.now() + (options.waitMs ?? this.#waitMs);
    const maxPolls = options.maxPolls ?? DEFAULT_MAX_POLLS;
    let waitMs = firstWaitMs;
    for (let polls = 0; polls < maxPolls; polls++) {
      if (Date.now() + waitMs > deadline) break;
      await sleep(waitMs, options.signal);
      // The status URL is free to read (spec §3.2): retried like any free read.
      const res = await this.#send({ method: 'GET', url: new URL(pending.statusUrl), retryable: true }, options);
      if (res.status !== 202) return finalAnswer(res);
      waitMs = pollWaitMs(res, (await res.json().catch(() => ({}))) as PendingBody);
    }
    throw new TramitaPendingError(pending.requestId, pending.statusUrl);
  }
}

interface PendingBody {
  data?: { requestId?: string; statusUrl?: string; pollAfterMs?: number; nextPollAt?: string };
  pollAfterMs?: number;
  nextPollAt?: string;
  meta?: { requestId?: string };
}

/** A final answer: the JSON envelope, a file, or a TramitaError. */
async function finalAnswer(res: Response): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok) throw await errorOf(res, type);
  if (type.includes('application/json')) return res.json();
  if (res.status === 204) return undefined;
  const file: FileResult = { bytes: new Uint8Array(await res.arrayBuffer()), contentType: type, filename: filenameOf(res.headers.get('content-disposition')) };
  return file;
}

async function errorOf(res: Response, type: string): Promise<TramitaError> {
  const retryAfterSeconds = res.headers.has('retry-after') ? Number(res.headers.get('retry-after')) : null;
  if (type.includes('application/json')) {
    const body = (await res.json().catch(() => null)) as {
      error?: { code?: string; message?: string; details?: Record<string, unknown> };
      meta?: { requestId?: string };
    } | null;
    if (body?.error?.code) {
      return new TramitaError({
        code: body.error.code,
        message: body.error.message ?? body.error.code,
        status: res.status,
        requestId: body.meta?.requestId ?? res.headers.get('x-request-id'),
        details: body.error.details,
        retryAfterSeconds,
      });
    }
  }
  await res.body?.cancel();
  return new TramitaError({
    code: `HTTP_${res.status}`,
    message: `Resposta HTTP ${res.status} sem o envelope de erro da API.`,
    status: res.status,
    requestId: res.headers.get('x-request-id'),
    retryAfterSeconds,
  });
}

/** The longest of what the server asked: Retry-After, pollAfterMs, nextPollAt (at least 100 ms). */
function pollWaitMs(res: Response, body: PendingBody): number {
  const asked = [
    retryAfterMs(res),
    body.data?.pollAfterMs ?? body.pollAfterMs,
    ...[body.data?.nextPollAt ?? body.nextPollAt].filter((t): t is string => typeof t === 'string').map((t) => Date.parse(t) - Date.now()),
  ].filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return Math.max(100, ...(asked.length > 0 ? asked : [DEFAULT_POLL_MS]));
}

function retryAfterMs(res: Response): number | undefined {
  const value = res.headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/** 0.5 s, 1 s, 2 s… with jitter, at most 8 s. */
function backoffMs(attempt: number): number {
  return Math.min(8_000, 500 * 2 ** attempt) * (0.75 + Math.random() / 2);
}

function filenameOf(disposition: string | null): string | null {
  const match = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  return match ? decodeURIComponent(match[1]!) : null;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
