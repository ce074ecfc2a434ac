/**
 * Case details (parties, lawyers, case value, public documents) from a provider that speaks the
 * case-details protocol (documented in src/sandbox/portal/server.ts): the sandbox simulator, or
 * whatever TRAMITA_PORTAL_URL points at, over HttpUpstream (no budget: the operator runs the
 * provider); 5xx, network failures, timeouts and 429 are retried twice with a short backoff.
 * Failures are classified by sources/http/classify.ts (source `portal`); bad JSON or shape is malformed.
 * A 404 on a case or a document is the answer "not found" (null), never an error.
 */
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import type { CaseDetailsRecord, CaseDetailsSource } from '../../platform/ports/case-details.ts';
import { header, type UpstreamResponse } from '../http/attempt.ts';
import type { BodyLimits } from '../http/body.ts';
import type { FixedRetryTuning } from '../http/backoff.ts';
import { HttpUpstream, operatorServer, upstreamError } from '../http/upstream.ts';
import { toCaseDetails, toCaseNumbers } from './wire.ts';
import { cnjCourtSigla } from '../../platform/identifiers/cnj.ts';
import type { RetryHooks } from '../http/waits.ts';

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

/** A PDF that ends before its `%%EOF` was cut in transit. */
function looksComplete(mimeType: string, body: Buffer): boolean {
  if (mimeType !== 'application/pdf') return true;
  return body.subarray(0, 5).toString('latin1') === '%PDF-' && body.subarray(-1024).toString('latin1').includes('%%EOF');
}

export class PortalConnector implements CaseDetailsSource {
  readonly info: SourceInfo;
  /** Its answers carry parties' names and documents: failures name a body by size and hash, never quote it. */
  readonly #http: HttpUpstream;
  readonly #courts: 'all' | ReadonlySet<string>;
  readonly #name: string;

  constructor(options: PortalConnectorOptions) {
    this.#courts = !options.courts || options.courts === 'all' ? 'all' : new Set(options.courts);
    this.#name = options.name ?? 'Portal';
    this.info = { name: 'Portal', sandbox: options.sandbox ?? false };
    const retries = { retries: 2, retryDelaysMs: [200, 600], maxRetryAfterMs: 2_000 };
    this.#http = new HttpUpstream({
      ...operatorServer(options, { timeoutMs: 10_000, connections: 8, retries }),
      source: 'portal',
      label: 'Portal',
      error: portalError,
      // 400/404 on a lookup, or any other status: the provider does not speak the protocol as documented.
      classify: { hints: { refused: 'Not expected by the case-details protocol.' } },
    });
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
    const path = `/api/v1/processos/${numero}`;
    const raw = await this.#get(path, signal, true);
    return raw && { ...toCaseDetails(this.#http.json(raw, path), numero), fonte: this.#name };
  }

  async findByDocument(documento: string, signal?: AbortSignal): Promise<string[]> {
    const key = documento.toUpperCase().replace(/[^0-9A-Z]/g, '');
    if (key === '') return [];
    return this.#numbers(`/api/v1/partes/processos?${new URLSearchParams({ documento: key })}`, signal);
  }

  async findByName(nome: string, signal?: AbortSignal): Promise<string[]> {
    const text = nome.trim().replace(/\s+/g, ' ');
    if (!/[\p{L}\p{N}]/u.test(text)) return [];
    return this.#numbers(`/api/v1/partes/processos?${new URLSearchParams({ nome: text })}`, signal);
  }

  async downloadDocument(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<{ mimeType: string; body: Uint8Array } | null> {
    const numero = numeroCnj.replace(/\D/g, '');
    if (numero.length !== 20 || documentId === '') return null;
    const raw = await this.#get(`/api/v1/processos/${numero}/documentos/${encodeURIComponent(documentId)}`, signal, true);
    if (!raw) return null;
    const mimeType = (header(raw, 'content-type') ?? 'application/octet-stream').split(';')[0].trim().toLowerCase();
    if (!looksComplete(mimeType, raw.body)) throw portalError('malformed', `Portal sent an incomplete ${mimeType} for document ${documentId} of ${numero}.`);
    return { mimeType, body: new Uint8Array(raw.body.buffer, raw.body.byteOffset, raw.body.length) };
  }

  /** Ends what is in flight (a request or a wait for a retry fails at once) and closes the sockets: see HttpUpstream.close. */
  async close(): Promise<void> {
    await this.#http.close();
  }

  async #numbers(path: string, signal: AbortSignal | undefined): Promise<string[]> {
    return toCaseNumbers(this.#http.json((await this.#get(path, signal, false))!, path));
  }

  /** GET with retries; resolves with a 200, or null on a 404 when `notFoundIsNull`; throws the classified failure otherwise. */
  #get(path: string, signal: AbortSignal | undefined, notFoundIsNull: boolean): Promise<UpstreamResponse | null> {
    return this.#http.send('GET', path, {
      signal,
      headers: { accept: 'application/json, application/pdf;q=0.9, */*;q=0.5' },
      read: (raw: UpstreamResponse) => (raw.status === 404 && notFoundIsNull ? null : this.#http.ok(raw, path)),
    });
  }
}
