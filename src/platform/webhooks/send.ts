/**
 * The transport of webhook deliveries: one POST, one result, never an exception. No database, no
 * retry policy (callers decide from the result), no redirects (a 3xx is a failure: following it would
 * let a receiver point us anywhere, past the address checks).
 *
 * Connections are pooled (keep-alive agents, LIFO so few sockets stay hot) and every connection goes
 * through the guarded lookup, which refuses names resolving to non-public addresses. Node never calls
 * `lookup` for IP-literal hosts, so those are checked here before connecting.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from './address.ts';
import { guardedLookup, PrivateAddressError, type LookupAll } from './lookup.ts';

export interface WebhookSenderOptions {
  /** Development only: http: URLs and loopback/private targets allowed. */
  allowPrivate: boolean;
  /** Budget for connect + request + response status and excerpt (spec §6.1: 10 s). */
  timeoutMs: number;
  /** Sockets per receiver host; further deliveries to it wait for one. Default 256. */
  maxSockets?: number;
  /** Tests only: replaces the system resolver behind the guarded lookup. */
  lookupAll?: LookupAll;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendResult {
  /** True only for a 2xx status. */
  ok: boolean;
  /** Null when no response arrived (refused, timed out, unreachable). */
  statusCode: number | null;
  latencyMs: number;
  /** The first ≤ 1024 bytes of the response body, decoded as UTF-8; null when no response arrived. */
  responseExcerpt: string | null;
  /** Why no response arrived; null whenever there is a status code. */
  error: string | null;
}

export const RESPONSE_EXCERPT_BYTES = 1024;
/** After the excerpt, a response this small is read to its end so the socket can be reused; a larger
 * one (or one of unknown length) is cut by destroying the socket. */
const DRAIN_LIMIT_BYTES = 64 * 1024;
/** Idle pooled sockets are closed after this, before common server keep-alive timeouts (5 s) close
 * them under us. Node also honours a server's `Keep-Alive: timeout=` hint. */
const IDLE_SOCKET_TIMEOUT_MS = 4_000;
const TARGET_CACHE_SIZE = 1024;

interface Target {
  client: typeof http | typeof https;
  agent: http.Agent;
  hostname: string;
  port: number | undefined;
  path: string;
  /** Set when the URL must not be sent to at all. */
  refusal: string | null;
}

export class WebhookSender {
  readonly #allowPrivate: boolean;
  readonly #timeoutMs: number;
  readonly #httpAgent: http.Agent;
  readonly #httpsAgent: https.Agent;
  /** Parsed URLs: deliveries go to few receivers many times, so each URL is parsed and judged once. */
  readonly #targets = new Map<string, Target>();
  #closed = false;

  constructor(opts: WebhookSenderOptions) {
    this.#allowPrivate = opts.allowPrivate;
    this.#timeoutMs = opts.timeoutMs;
    const agentOptions: http.AgentOptions = {
      keepAlive: true,
      maxSockets: opts.maxSockets ?? 256,
      scheduling: 'lifo',
      timeout: IDLE_SOCKET_TIMEOUT_MS,
      lookup: guardedLookup(opts.allowPrivate, opts.lookupAll),
    };
    this.#httpAgent = new http.Agent(agentOptions);
    this.#httpsAgent = new https.Agent(agentOptions);
  }

  send(request: WebhookRequest): Promise<SendResult> {
    const startedAt = performance.now();
    if (this.#closed) return Promise.resolve(failure(startedAt, 'sender is closed'));
    const target = this.#target(request.url);
    if (target.refusal !== null) return Promise.resolve(failure(startedAt, target.refusal));
    return new Promise((resolve) => new Exchange(target, request, this.#timeoutMs, startedAt, resolve).start());
  }

  /** Destroys every pooled socket; later sends fail with "sender is closed". */
  close(): void {
    this.#closed = true;
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
  }

  #target(rawUrl: string): Target {
    let target = this.#targets.get(rawUrl);
    if (target === undefined) {
      if (this.#targets.size >= TARGET_CACHE_SIZE) this.#targets.clear();
      target = this.#parseTarget(rawUrl);
      this.#targets.set(rawUrl, target);
    }
    return target;
  }

  #parseTarget(rawUrl: string): Target {
    const url = URL.parse(rawUrl);
    const isHttps = url?.protocol === 'https:';
    const target: Target = {
      client: isHttps ? https : http,
      agent: isHttps ? this.#httpsAgent : this.#httpAgent,
      hostname: '',
      port: undefined,
      path: '/',
      refusal: null,
    };
    if (!url) return { ...target, refusal: 'invalid URL' };
    if (!isHttps && !(url.protocol === 'http:' && this.#allowPrivate)) {
      return { ...target, refusal: `refused scheme ${url.protocol.slice(0, 32)} (https required)` };
    }
    target.hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    target.port = url.port === '' ? undefined : Number(url.port);
    target.path = url.pathname + url.search;
    if (!this.#allowPrivate && isIP(target.hostname) !== 0 && !isPublicAddress(target.hostname)) {
      target.refusal = describeError(new PrivateAddressError(target.hostname, target.hostname));
    }
    return target;
  }
}

/** One delivery attempt: the request, its timer and the reading of the response. */
class Exchange {
  readonly #target: Target;
  readonly #request: WebhookRequest;
  readonly #timeoutMs: number;
  readonly #startedAt: number;
  readonly #resolve: (result: SendResult) => void;
  readonly #timer: NodeJS.Timeout;
  #req: http.ClientRequest | null = null;
  #retried = false;
  #settled = false;
  #statusCode: number | null = null;
  #excerpt: Buffer | null = null;

  constructor(target: Target, request: WebhookRequest, timeoutMs: number, startedAt: number, resolve: (result: SendResult) => void) {
    this.#target = target;
    this.#request = request;
    this.#timeoutMs = timeoutMs;
    this.#startedAt = startedAt;
    this.#resolve = resolve;
    this.#timer = setTimeout(() => this.#onTimeout(), timeoutMs);
  }

  start(): void {
    const { client, agent, hostname, port, path } = this.#target;
    let req: http.ClientRequest;
    try {
      req = client.request({ agent, hostname, port, path, method: 'POST', headers: this.#request.headers });
      req.setHeader('content-length', Buffer.byteLength(this.#request.body));
    } catch (err) {
      // Invalid header names or values are thrown synchronously.
      this.#fail(describeError(err));
      return;
    }
    this.#req = req;
    req.on('error', (err: NodeJS.ErrnoException) => this.#onRequestError(req, err));
    req.on('response', (res) => this.#onResponse(res));
    req.end(this.#request.body);
  }

  #onRequestError(req: http.ClientRequest, err: NodeJS.ErrnoException): void {
    if (this.#settled || req !== this.#req) return;
    // A pooled socket the server closed while idle fails on first use; that request never reached
    // the receiver, so it is sent once more on a fresh connection (Node's documented pattern).
    const staleSocket = req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
    if (staleSocket && this.#statusCode === null && !this.#retried) {
      this.#retried = true;
      this.start();
      return;
    }
    if (this.#statusCode === null) this.#fail(describeError(err));
  }

  #onResponse(res: http.IncomingMessage): void {
    this.#statusCode = res.statusCode ?? null;
    res.on('data', (chunk: Buffer) => this.#onData(res, chunk));
    res.on('end', () => this.#done());
    res.on('close', () => this.#done());
    res.on('error', () => this.#done());
  }

  #onData(res: http.IncomingMessage, chunk: Buffer): void {
    if (this.#settled) return; // draining the rest of a small body
    const have = this.#excerpt?.length ?? 0;
    const take = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - have);
    this.#excerpt = this.#excerpt === null ? take : Buffer.concat([this.#excerpt, take]);
    if (this.#excerpt.length < RESPONSE_EXCERPT_BYTES) return;

    this.#succeed();
    const length = Number(res.headers['content-length']);
    if (!(length <= DRAIN_LIMIT_BYTES)) res.destroy(); // unknown or large: cut it
  }

  #onTimeout(): void {
    // Before the status: the attempt failed. After it (a slow body): keep what was read.
    if (this.#statusCode === null) this.#fail(`timeout after ${this.#timeoutMs}ms`);
    else this.#succeed();
    this.#req?.destroy();
  }

  /** The response ended or its socket closed. */
  #done(): void {
    clearTimeout(this.#timer);
    if (this.#statusCode !== null) this.#succeed();
  }

  /** A response arrived (whatever its status). */
  #succeed(): void {
    if (this.#settled) return;
    this.#settled = true;
    const status = this.#statusCode;
    this.#resolve({
      ok: status !== null && status >= 200 && status < 300,
      statusCode: status,
      latencyMs: elapsed(this.#startedAt),
      responseExcerpt: this.#excerpt === null ? '' : decodeExcerpt(this.#excerpt),
      error: null,
    });
  }

  #fail(error: string): void {
    clearTimeout(this.#timer);
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(failure(this.#startedAt, error));
  }
}

function failure(startedAt: number, error: string): SendResult {
  return { ok: false, statusCode: null, latencyMs: elapsed(startedAt), responseExcerpt: null, error };
}

function elapsed(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}

/** UTF-8 text of at most RESPONSE_EXCERPT_BYTES bytes: a character cut at the end is dropped, and
 * invalid bytes (each decoded as a 3-byte U+FFFD) cannot push it over the limit. */
function decodeExcerpt(bytes: Buffer): string {
  let end = bytes.length;
  // Drop an incomplete multi-byte sequence at the end (at most 3 continuation bytes to look back on).
  for (let back = 1; back <= Math.min(4, end); back++) {
    const byte = bytes[end - back];
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (needed > back) end -= back;
    break;
  }
  let text = bytes.toString('utf8', 0, end);
  while (Buffer.byteLength(text) > RESPONSE_EXCERPT_BYTES) text = text.slice(0, -1);
  return text;
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  const message = err.message || 'request failed';
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
