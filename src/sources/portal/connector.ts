/**
 * Case details (parties, lawyers, case value, public documents) from a provider that speaks the
 * case-details protocol (documented in src/sandbox/portal/server.ts): the sandbox simulator, or
 * whatever TRAMITA_PORTAL_URL points at. undici with a dedicated Agent; each attempt has its own
 * timeout; 5xx, network failures, timeouts and 429 are retried twice with a short backoff (on the
 * RequestLoop, no budget: the operator runs the provider).
 * Failures become SourceError('portal', …): network/5xx → unavailable, timeout → timeout,
 * 429 → rate_limited (with retryAfterMs), bad JSON or shape → malformed, 401/403 → unauthorized.
 * A 404 on a case or a document is the answer "not found" (null), never an error.
 */
import type { Agent } from 'undici';
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import { closedConnector, SourceError, type RetryableSourceError } from '../../platform/ports/source-error.ts';
import type { CaseDetailsRecord, CaseDetailsSource } from '../../platform/ports/case-details.ts';
import { header, pathOnly, sendOnce, upstreamAgent, type UpstreamResponse } from '../http/attempt.ts';
import { bodyJson, bodyLimits, errorBodyNote, type BodyLimits, type BodyReading } from '../http/body.ts';
import { fixedSchedule, type FixedRetryTuning } from '../http/backoff.ts';
import { RequestLoop } from '../http/loop.ts';
import { upstreamError } from '../http/upstream.ts';
import { toCaseDetails, toCaseNumbers } from './wire.ts';
import { cnjCourtSigla } from '../../platform/identifiers/cnj.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { retryAfterMs } from '../http/retry-after.ts';
import { isUpstreamTimeout } from '../http/timeout.ts';
import { realSleep, type RetryHooks } from '../http/waits.ts';

/** Retries: 2 after the first attempt, waiting 200 then 600 ms; a Retry-After over 2 s is not waited out (rate_limited). */
export interface PortalConnectorOptions extends RetryHooks, FixedRetryTuning {
  /** The provider's base URL, e.g. the sandbox's `portalUrl` (`http://127.0.0.1:4010/portal`). */
  baseUrl: string;
  /** Per attempt, headers and body included (default 10 000). */
  timeoutMs?: number;
  /** Marks the data as the simulator's (`info.sandbox`). */
  sandbox?: boolean;
  /** Sockets the connector's Agent may open (default 8). */
  connections?: number;
  /** Size and idle limits of an answer's body (TRAMITA_UPSTREAM_MAX_BYTES `portal`). */
  body?: BodyLimits;
  /** The courts whose cases it is asked about (TRAMITA_PORTAL_TRIBUNAIS; default every court). */
  courts?: 'all' | readonly string[];
  /** How the parties it gives name their source (TRAMITA_PORTAL_NOME; default `Portal`). */
  name?: string;
}

/** The portal's failures: transient ones (unavailable, timeout, rate_limited) are retried. */
const portalError = upstreamError('portal');

/**
 * How the body reader names the provider's answers. Its answers carry parties' names and documents:
 * failures name a body by size and hash, never quote it.
 */
const READING: Omit<BodyReading, 'limits'> = { source: 'portal', what: 'Portal', fail: (failure, message, opts) => portalError(failure, message, opts) };

/** A PDF that ends before its `%%EOF` was cut in transit. */
function looksComplete(mimeType: string, body: Buffer): boolean {
  if (mimeType !== 'application/pdf') return true;
  return body.subarray(0, 5).toString('latin1') === '%PDF-' && body.subarray(-1024).toString('latin1').includes('%%EOF');
}

export class PortalConnector implements CaseDetailsSource {
  readonly info: SourceInfo;
  readonly #base: string;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #agent: Agent;
  readonly #loop: RequestLoop;
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
    this.#clock = options.clock ?? systemClock;
    this.#loop = new RequestLoop({
      schedule: fixedSchedule(options, { retries: 2, retryDelaysMs: [200, 600], maxRetryAfterMs: 2_000 }),
      sleep: options.sleep ?? realSleep,
    });
    this.#agent = upstreamAgent(this.#timeoutMs, options.connections ?? 8);
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
    await this.#loop.close(closedConnector(portalError('unavailable', 'The portal connector was closed.', { retryable: false })));
    await this.#agent.close();
  }

  #json(raw: UpstreamResponse): unknown {
    return bodyJson(raw.body, this.#body);
  }

  /** GET with retries; resolves with a 200, or null on a 404 when `notFoundIsNull`; throws SourceError otherwise. */
  async #get(path: string, signal: AbortSignal | undefined, notFoundIsNull: boolean): Promise<UpstreamResponse | null> {
    return this.#loop.run(async (s) => {
      // A body refused by http/body.ts is retried when it was a silence, never when too large or unreadable.
      const raw = await this.#attempt(path, s).catch((err: unknown) => {
        throw s.aborted || err instanceof SourceError ? err : this.#unanswered(err, path);
      });
      if (raw.status === 200) return raw;
      if (raw.status === 404 && notFoundIsNull) return null;
      throw this.#statusFailure(raw, path);
    }, signal);
  }

  /** A request that got no answer: the attempt's timeout, or the provider unreachable. */
  #unanswered(err: unknown, path: string): RetryableSourceError {
    return isUpstreamTimeout(err)
      ? portalError('timeout', `Portal did not answer ${pathOnly(path)} within ${this.#timeoutMs} ms.`)
      : portalError('unavailable', `Portal unreachable for ${pathOnly(path)}: ${(err as Error).message}`);
  }

  #statusFailure(raw: UpstreamResponse, path: string): RetryableSourceError {
    const what = `Portal answered HTTP ${raw.status} for ${pathOnly(path)}`;
    if (raw.status === 429)
      return portalError('rate_limited', `${what}.`, { retryAfterMs: retryAfterMs(header(raw, 'retry-after'), this.#clock.now().getTime()) });
    if (raw.status === 401 || raw.status === 403) return portalError('unauthorized', `${what} ${errorBodyNote(raw.body)}.`);
    if (raw.status >= 500) return portalError('unavailable', `${what} ${errorBodyNote(raw.body)}.`);
    // 400/404 on a lookup, or any other status: the provider does not speak the protocol as documented.
    return portalError('unavailable', `${what} (not expected by the case-details protocol) ${errorBodyNote(raw.body)}.`);
  }

  #attempt(path: string, signal: AbortSignal): Promise<UpstreamResponse> {
    return sendOnce(this.#agent, `${this.#base}${path}`, {
      method: 'GET',
      timeoutMs: this.#timeoutMs,
      reading: this.#body,
      signal,
      headers: { accept: 'application/json, application/pdf;q=0.9, */*;q=0.5' },
    });
  }
}
