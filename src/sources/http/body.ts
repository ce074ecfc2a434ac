/**
 * Reading an upstream's answer: the one place every connector does it (issue 29). A body is read
 * within its source's byte limit (TRAMITA_UPSTREAM_MAX_BYTES): a Content-Length over it is refused
 * before a byte is read, and every byte is counted as it arrives, decompressed bytes included (undici's
 * `request` never decompresses; a body sent with a Content-Encoding anyway is decoded here), so the
 * read stops as soon as the limit is crossed and a body is never held whole past it. A body that goes
 * quiet for TRAMITA_UPSTREAM_IDLE_TIMEOUT_MS is abandoned; the connector's own timer bounds the whole.
 * Text must be valid UTF-8 (or the single-byte charset its Content-Type names), JSON no deeper than
 * MAX_JSON_DEPTH: V8 parses deep JSON without overflowing, but what walks it afterwards recursively
 * (JSON.stringify of the raw documents) throws RangeError, and a 64 MB `[[[…` takes gigabytes to parse.
 *
 * Failures are the connector's own SourceError (`too_large`, `malformed`, `timeout`): never "not
 * found", never charged. Their messages never quote a body, which may hold personal data (a party's
 * CPF, a name): they name its size and the first 12 hex digits of its SHA-256 (`describeBody`).
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Config } from '../../config.ts';
import { DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS, DEFAULT_UPSTREAM_MAX_BYTES, type UpstreamBodySource } from './body-limits.ts';
import { bodyRefused } from '../../platform/observability/upstreams.ts';
import type { SourceError, SourceFailure } from '../../platform/ports/source-error.ts';

export interface BodyLimits {
  /** Largest body read, counted after decompression (and before it too). */
  maxBytes: number;
  /** Longest silence while reading a body. */
  idleMs: number;
}

/** Deeper JSON than any upstream sends (DataJud's documents nest about 7 levels). */
export const MAX_JSON_DEPTH = 64;

/** The limits of one source, from the settings; the defaults when a connector is built without them (tests). */
export function bodyLimits(source: UpstreamBodySource, config?: Pick<Config, 'upstreamMaxBytes' | 'upstreamIdleTimeoutMs'>): BodyLimits {
  return {
    maxBytes: config?.upstreamMaxBytes[source] ?? DEFAULT_UPSTREAM_MAX_BYTES[source],
    idleMs: config?.upstreamIdleTimeoutMs ?? DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS,
  };
}

/** The connector's own error (its upstreamError factory, classify.ts), so its retry loop knows what it raised. */
export type FailureFactory = (failure: SourceFailure, message: string, opts?: { status?: number; retryable?: boolean }) => SourceError;

export interface BodyReading {
  /** The source's name in the metrics and logs (`datajud`, `dje-eleitoral`: sources/index.ts registers them). */
  source: string;
  /** What the messages call the answer: `DataJud api_publica_tjsp`, `Portal /api/v1/processos`. */
  what: string;
  limits: BodyLimits;
  fail: FailureFactory;
}

/** What an undici `request` resolves with (only what is read here). */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/** What a message may say of a body it must not quote: its size and a hash an operator can compare. */
export function describeBody(body: Uint8Array): string {
  return `${body.length} bytes, sha256 ${createHash('sha256').update(body).digest('hex').slice(0, 12)}`;
}

/**
 * An error answer's machine-readable type, when it has one an operator can act on: Elasticsearch's
 * `error.type`, OpenAI's `error.code`/`error.type`, `{"error": "…"}`. Only identifier-shaped values
 * (`index_not_found_exception`, `context_length_exceeded`): free text may echo personal data.
 */
export function errorTypeOf(body: Buffer): string | null {
  if (body.length > 65_536 || !isUtf8(body)) return null;
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  const error = (json as { error?: unknown } | null)?.error;
  const candidates = typeof error === 'object' && error !== null ? [(error as { code?: unknown }).code, (error as { type?: unknown }).type] : [error];
  const found = candidates.find((v) => typeof v === 'string' && /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(v));
  return (found as string | undefined) ?? null;
}

/** `(N bytes, sha256 …, error index_not_found_exception)`: how status failures name an error body. */
export function errorBodyNote(body: Buffer): string {
  const type = errorTypeOf(body);
  return `(${describeBody(body)}${type ? `, error ${type}` : ''})`;
}

class TooLarge extends Error {}

/** A refused body: the connector's error, and the source's state and the log told (never the body). */
function refuse(
  r: Pick<BodyReading, 'source' | 'fail'>,
  failure: SourceFailure,
  message: string,
  opts?: { status?: number; retryable?: boolean },
): SourceError {
  bodyRefused(r.source, failure, message);
  return r.fail(failure, message, opts);
}

/** Closes an answer left unread: undici then aborts its request, an error nobody else would hear. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function header(headers: Answer['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The decoder of a Content-Encoding; null for none; undefined when it is not one Node can decode. */
function decoderFor(encoding: string): Transform | null | undefined {
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

function counter(limit: number, onChunk?: () => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      onChunk?.();
      seen += chunk.length;
      if (seen > limit) cb(new TooLarge());
      else cb(null, chunk);
    },
  });
}

/**
 * Streams an answer's body into `sink` within the limits (decompressing it when it says it is
 * compressed); throws the connector's SourceError when it breaks one. The caller's `signal` (its
 * timeout) aborts the read like any other: its error comes back as it is, for the connector to map.
 */
export async function drainBody(res: Answer, r: BodyReading, sink: Writable, signal?: AbortSignal): Promise<void> {
  const { maxBytes, idleMs } = r.limits;
  const declared = Number(header(res.headers, 'content-length'));
  if (declared > maxBytes) {
    discard(res.body);
    throw refuse(r, 'too_large', `${r.what} announced a body of ${declared} bytes, over the ${maxBytes}-byte limit of this source; not read.`, {
      status: res.statusCode,
      retryable: false,
    });
  }
  const encoding = (header(res.headers, 'content-encoding') ?? '').trim().toLowerCase();
  const decoder = decoderFor(encoding);
  if (decoder === undefined) {
    discard(res.body);
    throw refuse(r, 'malformed', `${r.what} sent a body in a content-encoding Tramita does not read (${encoding.replace(/[^a-z0-9, -]/g, '').slice(0, 40)}).`, {
      status: res.statusCode,
      retryable: false,
    });
  }
  const idle = new AbortController();
  const timer = setTimeout(() => idle.abort(), idleMs);
  const arm = () => timer.refresh();
  // Decompressed bytes are progress too: a small compressed body may take a while to inflate.
  const stages: (Readable | Transform | Writable)[] = [res.body, counter(maxBytes, arm), ...(decoder ? [decoder, counter(maxBytes, arm)] : []), sink];
  try {
    await pipeline(stages, { signal: signal ? AbortSignal.any([signal, idle.signal]) : idle.signal });
  } catch (err) {
    if (err instanceof TooLarge) {
      throw refuse(
        r,
        'too_large',
        `${r.what} sent a body over the ${maxBytes}-byte limit of this source${decoder ? ` (counted after ${encoding} decompression)` : ''}; ` +
          `the read was stopped there.`,
        { status: res.statusCode, retryable: false },
      );
    }
    if (idle.signal.aborted && !signal?.aborted)
      throw refuse(r, 'timeout', `${r.what} sent no byte of its body for ${idleMs} ms; the read was abandoned.`, { status: res.statusCode });
    // zlib's errors (Z_DATA_ERROR, a cut stream's Z_BUF_ERROR) and brotli's (ERR__ERROR_FORMAT_…) carry an errno.
    if (decoder && typeof (err as { errno?: unknown }).errno === 'number' && /^(Z_|ERR__)/.test(String((err as { code?: unknown }).code))) {
      throw refuse(r, 'malformed', `${r.what} sent a body that does not decompress as ${encoding}.`, { status: res.statusCode, retryable: false });
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** The whole body, read within the limits (see drainBody). */
export async function readBody(res: Answer, r: BodyReading, signal?: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      size += chunk.length;
      cb();
    },
  });
  await drainBody(res, r, sink, signal);
  return Buffer.concat(chunks, size);
}

/** The charset a Content-Type header names, lower-cased; null when it names none. */
function headerCharset(contentType?: string): string | null {
  return /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase() ?? null;
}

/** The charset a page declares: the Content-Type header first, then `<meta charset>`, `<meta http-equiv>` or the XML declaration. */
function declaredCharset(head: Uint8Array, contentType?: string): string | null {
  const fromHeader = headerCharset(contentType);
  if (fromHeader) return fromHeader;
  const ascii = WINDOWS_1252.decode(head.subarray(0, 4096));
  const m = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(ascii) ?? /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(ascii);
  return m ? m[1].toLowerCase() : null;
}

/** Every byte is a character in it: how ISO-8859-1 (`latin1`, `LATIN1`) is read (WHATWG Encoding maps those labels to it). */
const WINDOWS_1252 = new TextDecoder('windows-1252');

/**
 * The body read in the charset declared, when it is not UTF-8 (decoded fatally: a byte the charset
 * lacks is not turned into U+FFFD); undefined when none is declared, UTF-8 is, or no decoder knows the
 * label (read as UTF-8 then), or the bytes are not in that charset.
 */
function inDeclaredCharset(body: Uint8Array, charset: string | null): string | undefined {
  if (!charset || /^utf-?8$/.test(charset)) return undefined;
  try {
    return new TextDecoder(charset, { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}

/**
 * A body that is not a page (JSON) as text: in the charset its Content-Type names, else UTF-8, refused
 * when it is not valid UTF-8 (the replacement characters a lenient decoding puts in would reach the store).
 */
export function bodyText(body: Buffer, r: Pick<BodyReading, 'source' | 'what' | 'fail'>, contentType?: string): string {
  const declared = inDeclaredCharset(body, headerCharset(contentType));
  if (declared !== undefined) return declared;
  if (!isUtf8(body)) throw refuse(r, 'malformed', `${r.what} sent a body that is not valid UTF-8 (${describeBody(body)}).`, { retryable: false });
  return body.toString('utf8');
}

/**
 * A web page's text from its bytes: the one decoder of pages, in production (HttpUpstream.page) and in
 * every test that reads a captured page. By the charset declared in the Content-Type or the page itself
 * (TJGO's PROJUDI: `<meta ... charset=LATIN1>`). UTF-8, declared or assumed, that is not valid UTF-8 is
 * read as Windows-1252, where every byte is a character: TJCE's PJe declares UTF-8 and sends ISO-8859-1
 * bytes (reference/upstream/real/README.md §1 quirks). Never fails.
 */
export function pageText(bytes: Uint8Array, contentType?: string): string {
  const declared = inDeclaredCharset(bytes, declaredCharset(bytes, contentType));
  if (declared !== undefined) return declared;
  return isUtf8(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : WINDOWS_1252.decode(bytes);
}

/** True when `text` (JSON) opens more than `max` arrays/objects at once; strings are skipped whole. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: one preceded by an even number of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return false; // unterminated: JSON.parse says so
        let k = i - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((i - 1 - k) % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A body as JSON: valid UTF-8, at most MAX_JSON_DEPTH deep, parseable; `malformed` otherwise (never quoting it). */
export function bodyJson(body: Buffer, r: Pick<BodyReading, 'source' | 'what' | 'fail'>, opts: { retryable?: boolean } = {}): unknown {
  const text = bodyText(body, r);
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw refuse(r, 'malformed', `${r.what} sent JSON nested deeper than ${MAX_JSON_DEPTH} levels (${describeBody(body)}).`, { retryable: false });
  try {
    return JSON.parse(text);
  } catch {
    // V8's SyntaxError quotes the text around the error: never passed on.
    throw refuse(r, 'malformed', `${r.what} sent a body that is not JSON (${describeBody(body)}).`, opts);
  }
}
