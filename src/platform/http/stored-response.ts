/**
 * A response kept to be replayed byte for byte: by the status URL of a pending operation and by an
 * idempotent retry. Text bodies are stored as UTF-8, binary ones (PDFs) as base64.
 */
import type { FastifyReply } from 'fastify';

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface StoredColumns {
  response_status: number;
  response_headers: string;
  response_body: string;
  response_encoding: 'utf8' | 'base64';
}

export function toColumns(r: StoredResponse): StoredColumns {
  // A JSON body held as bytes (an envelope around cached data, envelopeJson) is text all the same.
  const binary = Buffer.isBuffer(r.body) && !r.headers['content-type']?.startsWith('application/json');
  return {
    response_status: r.status,
    response_headers: JSON.stringify(r.headers),
    response_body: binary ? (r.body as Buffer).toString('base64') : r.body.toString(),
    response_encoding: binary ? 'base64' : 'utf8',
  };
}

export function fromColumns(c: { response_status: number | null; response_headers: string | null; response_body: string | null; response_encoding: string | null }): StoredResponse {
  const body = c.response_body ?? '';
  return {
    status: c.response_status ?? 500,
    headers: JSON.parse(c.response_headers ?? '{}'),
    body: c.response_encoding === 'base64' ? Buffer.from(body, 'base64') : body,
  };
}

export function sendStored(reply: FastifyReply, r: StoredResponse): FastifyReply {
  return reply.code(r.status).headers(r.headers).send(r.body);
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): StoredResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

/**
 * `data` already serialized, for an answer whose data is cached (a hot case cover): the envelope
 * embeds it as is instead of serializing the same object again. `text` must be JSON.stringify's.
 * Kept as the envelope's first bytes, `{"data":` and the text in UTF-8, encoded once: each answer then
 * copies them instead of building, measuring and encoding a string of several KB (issue 34).
 */
export class JsonText {
  readonly head: Buffer;
  constructor(text: string) {
    this.head = Buffer.from(`${ENVELOPE_HEAD}${text}`);
  }
  get text(): string {
    return this.head.toString('utf8', ENVELOPE_HEAD.length);
  }
}

const ENVELOPE_HEAD = '{"data":';

/** `{data, meta}` as JSON.stringify would write it: a string, or its UTF-8 bytes around cached data. */
export function envelopeJson(data: unknown, meta: Record<string, unknown>): string | Buffer {
  if (!(data instanceof JsonText)) return JSON.stringify({ data, meta });
  const tail = `,"meta":${JSON.stringify(meta)}}`;
  const body = Buffer.allocUnsafe(data.head.length + Buffer.byteLength(tail));
  data.head.copy(body, 0);
  body.write(tail, data.head.length);
  return body;
}
