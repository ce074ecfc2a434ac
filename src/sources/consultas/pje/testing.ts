/**
 * Test helpers for the PJe client: a PjeHttp over fetch (no redirect following, bytes decoded by the
 * page's declared charset, as a connector does it) and a loopback server that answers from a handler.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodePage } from '../challenge.ts';
import type { PjeHttp } from './client.ts';

/** PjeHttp over fetch: redirects returned as they are, the body decoded by its declared charset. */
export const fetchPjeHttp: PjeHttp = async (req, signal) => {
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, redirect: 'manual', signal });
  const headers: Record<string, string | string[]> = {};
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return { status: res.status, headers, body: decodePage(new Uint8Array(await res.arrayBuffer()), res.headers.get('content-type') ?? undefined) };
};

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string | string[]>;
  body: string | Buffer;
}

/** A server on 127.0.0.1 answering each request with `handle`; `requests` records what came. */
export async function startLoopback(handle: (r: RecordedRequest) => Reply): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(recorded);
    const reply = handle(recorded);
    res.writeHead(reply.status ?? 200, { 'content-type': 'text/html; charset=UTF-8', ...reply.headers });
    res.end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
