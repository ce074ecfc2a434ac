/**
 * Case details (parties, lawyers, case value, public documents) from a provider that speaks the
 * case-details protocol (documented in src/sandbox/portal/server.ts): the sandbox simulator, or
 * whatever TRAMITA_PORTAL_URL points at. undici with a dedicated Agent; each attempt has its own
 * timeout; 5xx, network failures, timeouts and 429 are retried twice with a short backoff.
 * Failures become SourceError('portal', …): network/5xx → unavailable, timeout → timeout,
 * 429 → rate_limited (with retryAfterMs), bad JSON or shape → malformed, 401/403 → unauthorized.
 * A 404 on a case or a document is the answer "not found" (null), never an error.
 */
import { Agent, request } from 'undici';
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import { closedConnector, SourceError } from '../../platform/ports/source-error.ts';
import type { CaseDetailsRecord, CaseDetailsSource } from '../../platform/ports/case-details.ts';
import { header, pathOnly, underTimeout } from '../http/attempt.ts';
import { bodyJson, bodyLimits, errorBodyNote, readBody, type BodyLimits, type BodyReading } from '../http/body.ts';
import { toCaseDetails, toCaseNumbers } from './wire.ts';
import { cnjCourtSigla } from '../../platform/identifiers/cnj.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { retryAfterMs } from '../http/retry-after.ts';
import { isUpstreamTimeout } from '../http/timeout.ts';
import { realSleep, type RetryHooks, type Sleep } from '../http/waits.ts';

export interface PortalConnectorOptions extends RetryHooks {
  /** The provider's base URL, e.g. the sandbox's `portalUrl` (`http://127.0.0.1:4010/portal`). */
  baseUrl: string;
  /** Per attempt, headers and body included (default 10 000). */
  timeoutMs?: number;
  /** Marks the data as the simulator's (`info.sandbox`). */
  sandbox?: boolean;
  /** Retries after the first attempt (default 2). */
  retries?: number;
  /** Wait before each retry (default [200, 600]); a 429's Retry-After replaces it when shorter than maxRetryAfterMs. */
  retryDelaysMs?: readonly number[];
  /** A 429 asking to wait longer than this is not retried here: the caller gets rate_limited with retryAfterMs (default 2 000). */
  maxRetryAfterMs?: number;
  /** Sockets the connector's Agent may open (default 8). */
  connections?: number;
  /** Size and idle limits of an answer's body (TRAMITA_UPSTREAM_MAX_BYTES `portal`). */
  body?: BodyLimits;
  /** The courts whose cases it is asked about (TRAMITA_PORTAL_TRIBUNAIS; default every court). */
  courts?: 'all' | readonly string[];
  /** How the parties it gives name their source (TRAMITA_PORTAL_NOME; default `Portal`). */
  name?: string;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Retry-After in ms: delta-seconds or an HTTP date. */
/**
 * How the body reader names the provider's answers. Its answers carry parties' names and documents:
 * failures name a body by size and hash, never quote it.
 */
const READING: Omit<BodyReading, 'limits'> = { source: 'portal', what: 'Portal', fail: (failure, message) => new SourceError('portal', failure, message) };

/** A PDF that ends before its `%%EOF` was cut in transit. */
function looksComplete(mimeType: string, body: Buffer): boolean {
  if (mimeType !== 'application/pdf') return true;
  return body.subarray(0, 5).toString('latin1') === '%PDF-' && body.subarray(-1024).toString('latin1').includes('%%EOF');
}

export class PortalConnector implements CaseDetailsSource {
  readonly info: SourceInfo;
  readonly #base: string;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #delays: readonly number[];
  readonly #maxRetryAfterMs: number;
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  readonly #agent: Agent;
  /** Aborted by close(): requests in flight and waits for a retry end with it. */
  readonly #closing = new AbortController();
  readonly #body: BodyReading;
  readonly #courts: 'all' | ReadonlySet<string>;
  readonly #name: string;

  constructor(options: PortalConnectorOptions) {
    this.#courts = !options.courts || options.courts === 'all' ? 'all' : new Set(options.courts);
    this.#name = options.name ?? 'Portal';
    this.#body = { ...READING, limits: options.body ?? bodyLimits('portal') };
    this.info = { name: 'Portal', sandbox: options.sandbox ?? false };
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#retries = options.retries ?? 2;
    this.#delays = options.retryDelaysMs ?? [200, 600];
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 2_000;
    this.#clock = options.clock ?? systemClock;
    this.#sleep = options.sleep ?? realSleep;
    // undici's own timeouts are a backstop: the per-attempt timer covers headers and body.
    const backstop = this.#timeoutMs + 1_000;
    this.#agent = new Agent({ connections: options.connections ?? 8, headersTimeout: backstop, bodyTimeout: backstop });
  }

  /** Whether this number's court is one the provider is asked about (TRAMITA_PORTAL_TRIBUNAIS). */
  serves(numeroCnj: string): boolean {
    if (this.#courts === 'all') return true;
    const sigla = /^\d{20}$/.test(numeroCnj) ? cnjCourtSigla(numeroCnj.slice(13, 14), numeroCnj.slice(14, 16)) : undefined;
    return sigla !== undefined && this.#courts.has(sigla);
  }

  async fetchDetails(numeroCnj: string, signal?: AbortSignal): Promise<CaseDetailsRecord | null> {
    const numero = numeroCnj.replace(/\D/g, '');
    if (numero.length !== 20) return null; // no provider knows a number that is not one
    if (!this.serves(numero)) return null; // not a court it covers: its consultation or DJEN gives the parties
    const raw = await this.#get(`/api/v1/processos/${numero}`, signal, true);
    return raw && { ...toCaseDetails(this.#json(raw), numero), fonte: this.#name };
  }

  async findByDocument(documento: string, signal?: AbortSignal): Promise<string[]> {
    const key = documento.toUpperCase().replace(/[^0-9A-Z]/g, '');
    if (key === '') return [];
    return toCaseNumbers(this.#json((await this.#get(`/api/v1/partes/processos?${new URLSearchParams({ documento: key })}`, signal, false))!));
  }

  async findByName(nome: string, signal?: AbortSignal): Promise<string[]> {
    const text = nome.trim().replace(/\s+/g, ' ');
    if (!/[\p{L}\p{N}]/u.test(text)) return [];
    return toCaseNumbers(this.#json((await this.#get(`/api/v1/partes/processos?${new URLSearchParams({ nome: text })}`, signal, false))!));
  }

  async downloadDocument(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<{ mimeType: string; body: Uint8Array } | null> {
    const numero = numeroCnj.replace(/\D/g, '');
    if (numero.length !== 20 || documentId === '') return null;
    const raw = await this.#get(`/api/v1/processos/${numero}/documentos/${encodeURIComponent(documentId)}`, signal, true);
    if (!raw) return null;
    const mimeType = (header(raw, 'content-type') ?? 'application/octet-stream').split(';')[0].trim().toLowerCase();
    if (!looksComplete(mimeType, raw.body))
      throw new SourceError('portal', 'malformed', `Portal sent an incomplete ${mimeType} for document ${documentId} of ${numero}.`);
    return { mimeType, body: new Uint8Array(raw.body.buffer, raw.body.byteOffset, raw.body.length) };
  }

  /** Ends what is in flight (a request or a wait for a retry fails at once) and closes the sockets: see HttpUpstream.close. */
  async close(): Promise<void> {
    if (!this.#closing.signal.aborted) this.#closing.abort(closedConnector(new SourceError('portal', 'unavailable', 'The portal connector was closed.')));
    await this.#agent.close();
  }

  #json(raw: RawResponse): unknown {
    return bodyJson(raw.body, this.#body);
  }

  /** GET with retries; resolves with a 200, or null on a 404 when `notFoundIsNull`; throws SourceError otherwise. */
  async #get(path: string, asked: AbortSignal | undefined, notFoundIsNull: boolean): Promise<RawResponse | null> {
    const signal = asked ? AbortSignal.any([asked, this.#closing.signal]) : this.#closing.signal;
    for (let attempt = 0; ; attempt++) {
      signal.throwIfAborted();
      let failure: SourceError;
      try {
        const raw = await this.#attempt(path, signal);
        if (raw.status === 200) return raw;
        if (raw.status === 404 && notFoundIsNull) return null;
        failure = this.#statusFailure(raw, path);
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        // A body refused by http/body.ts: retried when it was a silence, never when too large or unreadable.
        failure =
          err instanceof SourceError
            ? err
            : isUpstreamTimeout(err)
              ? new SourceError('portal', 'timeout', `Portal did not answer ${pathOnly(path)} within ${this.#timeoutMs} ms.`)
              : new SourceError('portal', 'unavailable', `Portal unreachable for ${pathOnly(path)}: ${(err as Error).message}`);
      }
      const retryable = failure.failure === 'unavailable' || failure.failure === 'timeout' || failure.failure === 'rate_limited';
      const wait =
        failure.failure === 'rate_limited' && failure.retryAfterMs !== undefined
          ? failure.retryAfterMs
          : (this.#delays[Math.min(attempt, this.#delays.length - 1)] ?? 0);
      if (!retryable || attempt >= this.#retries || (failure.failure === 'rate_limited' && wait > this.#maxRetryAfterMs)) throw failure;
      await this.#sleep(wait, signal);
    }
  }

  #statusFailure(raw: RawResponse, path: string): SourceError {
    const what = `Portal answered HTTP ${raw.status} for ${pathOnly(path)}`;
    if (raw.status === 429) return new SourceError('portal', 'rate_limited', `${what}.`, retryAfterMs(header(raw, 'retry-after'), this.#clock.now().getTime()));
    if (raw.status === 401 || raw.status === 403) return new SourceError('portal', 'unauthorized', `${what} ${errorBodyNote(raw.body)}.`);
    if (raw.status >= 500) return new SourceError('portal', 'unavailable', `${what} ${errorBodyNote(raw.body)}.`);
    // 400/404 on a lookup, or any other status: the provider does not speak the protocol as documented.
    return new SourceError('portal', 'unavailable', `${what} (not expected by the case-details protocol) ${errorBodyNote(raw.body)}.`);
  }

  /** One request, body read in full, under this attempt's timeout. */
  #attempt(path: string, signal: AbortSignal | undefined): Promise<RawResponse> {
    return underTimeout(this.#timeoutMs, signal, async (combined) => {
      const res = await request(`${this.#base}${path}`, {
        method: 'GET',
        dispatcher: this.#agent,
        signal: combined,
        headers: { accept: 'application/json, application/pdf;q=0.9, */*;q=0.5' },
      });
      const body = await readBody(res, this.#body, combined);
      return { status: res.statusCode, headers: res.headers, body };
    });
  }
}
