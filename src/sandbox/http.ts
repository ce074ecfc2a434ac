/**
 * The small HTTP vocabulary the simulators share: a request read in full, a response built in full
 * (so the fault layer can truncate it), and helpers to build JSON answers.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface SimRequest {
  method: string;
  /** Path below the upstream's prefix, e.g. `/api_publica_trf4/_search`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface SimResponse {
  status: number;
  /** An array for a header sent several times (`set-cookie`). */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** What the fault layer tells a handler about this request. */
export interface HandlerContext {
  /** Epoch ms of the data set's clock when the request is served. */
  now: number;
  /** DataJud: answer as if one shard failed (`_shards.failed > 0`, its hits missing). */
  partialShards: boolean;
}

export type UpstreamHandler = (req: SimRequest, ctx: HandlerContext) => SimResponse | Promise<SimResponse>;

export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): SimResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(JSON.stringify(value)) };
}

export function isJsonContentType(value: string | undefined): boolean {
  return !!value && /^application\/(json|x-ndjson)\b/i.test(value.trim());
}
