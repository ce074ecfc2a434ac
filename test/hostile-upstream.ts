/**
 * A hostile upstream on 127.0.0.1 (issue 29): it speaks DataJud's `_search` and the warrants provider
 * protocol, and answers each of five chosen keys (a DataJud alias, a CPF) with one hostile body, every
 * other request with a well-formed answer:
 *   huge   1 GB of JSON-looking bytes, chunked (no Content-Length), as fast as the socket takes them
 *   drip   a valid-looking start, then one byte a second
 *   bomb   256 MB of zeros gzip-compressed (~256 KB on the wire), `Content-Encoding: gzip`
 *   utf8   well-formed JSON with invalid UTF-8 inside a string (a lenient decoder would read it as empty)
 *   deep   100,000 nested arrays
 * The hostile bodies carry a fictitious party's name and CPF, so a test can prove nothing quotes them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { cpfCheckDigits } from '../src/platform/identifiers/cpf-cnpj.ts';
import { esResponse, fakeDoc } from '../src/sources/datajud/testing/fake-datajud.ts';

export const HOSTILE = ['huge', 'drip', 'bomb', 'utf8', 'deep'] as const;
export type Hostile = (typeof HOSTILE)[number];

/** Personal data the hostile bodies carry (fictitious): it must never reach a log line. */
export const PARTY_NAME = 'Fulana Hostil de Tal';
export const PARTY_CPF = `123456789${cpfCheckDigits('123456789')}`;
const PERSONAL = `"nome":"${PARTY_NAME}","documento":"${PARTY_CPF}"`;

/** 256 MB of zeros, gzipped a megabyte at a time (never held whole). */
async function gzipBomb(): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((r) => gzip.on('end', r));
  const mb = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < 256; i++) if (!gzip.write(mb)) await new Promise((r) => gzip.once('drain', r));
  gzip.end();
  await done;
  return Buffer.concat(out);
}

function drainedOrClosed(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export interface HostileUpstream {
  url: string;
  /** Bytes the hostile answers managed to send, by kind (what the client read or buffered, at most). */
  sent: Record<Hostile, number>;
  close(): Promise<void>;
}

/**
 * `datajud`: alias → hostile kind; `warrants`: CPF → hostile kind. DataJud requests for other aliases
 * get one plausible document per number asked; warrant queries for other CPFs get `{"mandados": []}`.
 */
export async function startHostileUpstream(routes: { datajud: Record<string, Hostile>; warrants: Record<string, Hostile> }): Promise<HostileUpstream> {
  const bomb = await gzipBomb();
  const sent = Object.fromEntries(HOSTILE.map((k) => [k, 0])) as Record<Hostile, number>;
  const timers = new Set<NodeJS.Timeout>();

  /** `open`/`close`: the JSON around the hostile part (the protocol's envelope), so only the hostile part is wrong. */
  const hostile = async (kind: Hostile, open: string, close: string, res: http.ServerResponse) => {
    const count = (n: number) => {
      sent[kind] += n;
    };
    switch (kind) {
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        res.write(open);
        for (let total = 0; total < 1024 ** 3 && !res.destroyed; total += chunk.length) {
          count(chunk.length);
          if (!res.write(chunk)) await drainedOrClosed(res);
        }
        res.end();
        return;
      }
      case 'drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(open);
        const tick = setInterval(() => {
          if (res.destroyed) {
            clearInterval(tick);
            timers.delete(tick);
            return;
          }
          count(1);
          res.write(' ');
        }, 1_000);
        timers.add(tick);
        return;
      }
      case 'bomb':
        count(bomb.length);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
        res.end(bomb);
        return;
      case 'utf8': {
        const body = Buffer.concat([Buffer.from(`${open}{${PERSONAL},"x":"`), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(`"}${close}`)]);
        count(body.length);
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
        return;
      }
      case 'deep': {
        const body = `${open}${'['.repeat(100_000)}{${PERSONAL}}${']'.repeat(100_000)}${close}`;
        count(body.length);
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      }
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const search = /^\/([^/]+)\/_search$/.exec(url.pathname);
      if (req.method === 'POST' && search) {
        const alias = decodeURIComponent(search[1]);
        const kind = routes.datajud[alias];
        if (kind) return void hostile(kind, '{"took":1,"timed_out":false,"hits":{"total":{"value":1},"hits":[', ']}}', res);
        let numbers: string[] = [];
        try {
          numbers =
            (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query?: { terms?: { numeroProcesso?: string[] } } }).query?.terms?.numeroProcesso ?? [];
        } catch {
          /* a probe: no numbers */
        }
        const tribunal = alias.replace(/^api_publica_/, '').toUpperCase();
        const hits = numbers.map((n, i) => ({ ...fakeDoc(n, 'G1', Date.UTC(2026, 0, 1) + i, tribunal), _index: alias }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(esResponse(hits)));
        return;
      }
      if (req.method === 'GET' && url.pathname === '/mandados') {
        const kind = routes.warrants[url.searchParams.get('cpf') ?? ''];
        if (kind) return void hostile(kind, '{"mandados":[', ']}', res);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"mandados":[]}');
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not here"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    async close() {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
