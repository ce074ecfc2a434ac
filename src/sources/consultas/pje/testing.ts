/**
 * Test helpers for the PJe client: the consultations' HTTP pool as a test on loopback wants it (no
 * budget to wait on, retries without a pause) and a loopback server that answers from a handler.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConsultaHttp } from '../http.ts';

/** The per-host pool of production, without its waits: every retry and Retry-After is taken at once. */
export function loopbackConsultaHttp(): ConsultaHttp {
  return new ConsultaHttp({ userAgent: 'Tramita-test', perMinute: 100_000, timeoutMs: 5_000, retryDelaysMs: [0], sleep: async () => {} });
}

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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
