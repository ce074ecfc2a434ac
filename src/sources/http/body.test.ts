/**
 * The one reader of upstream bodies (issue 29), against a node:http server on 127.0.0.1: limits
 * (announced, streamed, decompressed), silence, encodings, UTF-8, nesting, and messages that name a
 * body by size and hash without quoting it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { Agent, request } from 'undici';
import { loadConfig, ConfigError } from '../../config.ts';
import { parseUpstreamMaxBytes, DEFAULT_UPSTREAM_MAX_BYTES } from './body-limits.ts';
import { SourceError, type SourceFailure } from '../../platform/ports/source-error.ts';
import { bodyJson, bodyLimits, bodyText, describeBody, errorTypeOf, nestsDeeperThan, readBody, MAX_JSON_DEPTH, type BodyReading } from './body.ts';

type Answer = (res: http.ServerResponse) => void | Promise<void>;

const CPF = '52998224725';

describe('reading an upstream body', () => {
  const answers = new Map<string, Answer>();
  /** Bytes each path's handler managed to hand to its socket before the client went away. */
  const written = new Map<string, number>();
  let server: http.Server;
  let base = '';
  const agent = new Agent({ connections: 4 });
  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      void answers.get(req.url ?? '')?.(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await agent.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const reading = (maxBytes: number, idleMs = 2_000): BodyReading => ({
    source: 'teste',
    what: 'The test upstream',
    limits: { maxBytes, idleMs },
    fail: (failure, message) => new SourceError('teste', failure, message),
  });
  const get = async (path: string, r: BodyReading) => readBody(await request(`${base}${path}`, { dispatcher: agent }), r);
  const failureOf = async (promise: Promise<unknown>): Promise<SourceError> => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof SourceError, `expected a SourceError, got ${String(err)}`);
    return err;
  };
  const expectFailure = async (promise: Promise<unknown>, failure: SourceFailure) => {
    const err = await failureOf(promise);
    assert.equal(err.failure, failure, err.message);
    return err;
  };
  /** Writes `total` bytes of `byte` in 64 KB chunks, waiting for drain, counting what the socket took. */
  const stream =
    (path: string, total: number, headers: http.OutgoingHttpHeaders = {}): Answer =>
    async (res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      const chunk = Buffer.alloc(65_536, 0x20);
      let sent = 0;
      res.on('close', () => written.set(path, sent));
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk))
          await new Promise((r) => {
            res.once('drain', r);
            res.once('close', r);
          });
      }
      res.end();
    };

  test('a body within its limit is read whole, and a gzip-encoded one decoded', async () => {
    const json = JSON.stringify({ ok: true, texto: 'ação' });
    answers.set('/ok', (res) => {
      res.end(json);
    });
    answers.set('/gz', (res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(json));
    });
    assert.equal((await get('/ok', reading(1024))).toString('utf8'), json);
    assert.equal((await get('/gz', reading(1024))).toString('utf8'), json);
  });

  test('a Content-Length over the limit is refused unread', async () => {
    answers.set('/announced', (res) => {
      res.writeHead(200, { 'content-length': 5_000_000 });
      res.end(Buffer.alloc(5_000_000));
    });
    const err = await expectFailure(get('/announced', reading(1_000_000)), 'too_large');
    assert.match(err.message, /announced a body of 5000000 bytes, over the 1000000-byte limit/);
  });

  test('a streamed body is cut the moment it crosses the limit, never read to its end', async () => {
    const total = 256 * 1024 * 1024;
    answers.set('/huge', stream('/huge', total));
    const err = await expectFailure(get('/huge', reading(1_000_000)), 'too_large');
    assert.match(err.message, /over the 1000000-byte limit/);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok((written.get('/huge') ?? total) < total / 8, `the server wrote ${written.get('/huge')} of ${total} bytes before the client hung up`);
  });

  test('a gzip bomb is counted after decompression and stopped at the limit', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));
    answers.set('/bomb', (res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': bomb.length });
      res.end(bomb);
    });
    assert.ok(bomb.length < 1_000_000, 'the compressed bomb itself is within the limit');
    const err = await expectFailure(get('/bomb', reading(1_000_000)), 'too_large');
    assert.match(err.message, /counted after gzip decompression/);
  });

  test('a body that does not decompress, or an encoding Node cannot read, is malformed', async () => {
    answers.set('/broken-gz', (res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(Buffer.from(`not gzip at all ${CPF}`));
    });
    answers.set('/broken-br', (res) => {
      res.writeHead(200, { 'content-encoding': 'br' });
      res.end(Buffer.from('not brotli either'));
    });
    answers.set('/compress', (res) => {
      res.writeHead(200, { 'content-encoding': 'compress' });
      res.end('x');
    });
    const err = await expectFailure(get('/broken-gz', reading(1_000_000)), 'malformed');
    assert.doesNotMatch(err.message, new RegExp(CPF));
    await expectFailure(get('/broken-br', reading(1_000_000)), 'malformed');
    await expectFailure(get('/compress', reading(1_000_000)), 'malformed');
  });

  test('a body that goes quiet past the idle timeout is abandoned as a timeout', async () => {
    answers.set('/drip', (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const tick = setInterval(() => (res.destroyed ? clearInterval(tick) : undefined), 50);
    });
    const err = await expectFailure(get('/drip', reading(1_000_000, 150)), 'timeout');
    assert.match(err.message, /sent no byte of its body for 150 ms/);
  });

  test('text must be valid UTF-8 unless the Content-Type names a single-byte charset', () => {
    const r = reading(1024);
    assert.throws(() => bodyText(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), r), { failure: 'malformed' });
    assert.equal(bodyText(Buffer.from('ação', 'utf8'), r, 'text/html; charset=UTF-8'), 'ação');
    assert.equal(bodyText(Buffer.from('ação', 'latin1'), r, 'text/html; charset=ISO-8859-1'), 'ação');
  });

  test('JSON nested past the limit is malformed before any parse, never a RangeError', () => {
    const r = reading(1024);
    const deep = Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    assert.throws(
      () => bodyJson(deep, r),
      (e: unknown) => e instanceof SourceError && e.failure === 'malformed' && /nested deeper than 64/.test(e.message),
    );
    const fine = `${'{"a":'.repeat(MAX_JSON_DEPTH - 1)}1${'}'.repeat(MAX_JSON_DEPTH - 1)}`;
    assert.ok(bodyJson(Buffer.from(fine), r));
  });

  test('the depth scan skips brackets inside strings, escaped quotes included', () => {
    assert.equal(nestsDeeperThan('{"a":"[[[[[[","b":"\\"[[[[","c":"\\\\"}', 1), false);
    assert.equal(nestsDeeperThan('[[["]]]"]]]', 2), true);
    assert.equal(nestsDeeperThan('[[],[],[]]', 2), false);
  });

  test('a body that is not JSON is named by size and hash: the message never quotes it', () => {
    const body = Buffer.from(`{"numeroProcesso":"00000000000000000000","partes":[{"nome":"Fulana de Tal","documento":"${CPF}"`);
    const err = (() => {
      try {
        bodyJson(body, reading(1024));
      } catch (e) {
        return e as SourceError;
      }
    })()!;
    assert.equal(err.failure, 'malformed');
    assert.ok(err.message.includes(describeBody(body)), err.message);
    assert.doesNotMatch(err.message, /Fulana|numeroProcesso|\d{11}/);
    assert.match(describeBody(body), /^\d+ bytes, sha256 [0-9a-f]{12}$/);
  });

  test("an error body's type is named only when it is identifier-shaped", () => {
    assert.equal(errorTypeOf(Buffer.from('{"error":{"type":"index_not_found_exception","reason":"no such index [x]"}}')), 'index_not_found_exception');
    assert.equal(
      errorTypeOf(Buffer.from('{"error":{"message":"bad","type":"invalid_request_error","code":"context_length_exceeded"}}')),
      'context_length_exceeded',
    );
    assert.equal(errorTypeOf(Buffer.from('{"error":"Fulana de Tal 529.982.247-25"}')), null);
    assert.equal(errorTypeOf(Buffer.from('<html>502</html>')), null);
  });
});

describe('TRAMITA_UPSTREAM_MAX_BYTES and TRAMITA_UPSTREAM_IDLE_TIMEOUT_MS', () => {
  test('override some sources, the rest keep their defaults', () => {
    const limits = parseUpstreamMaxBytes('datajud=8MB, djen-caderno=2GB,mandados=65536');
    assert.equal(limits.datajud, 8 * 1024 * 1024);
    assert.equal(limits['djen-caderno'], 2 * 1024 * 1024 * 1024);
    assert.equal(limits.mandados, 65_536);
    assert.equal(limits.portal, DEFAULT_UPSTREAM_MAX_BYTES.portal);
    for (const bad of ['datajud', 'nada=1MB', 'datajud=1TB', 'datajud=10']) assert.throws(() => parseUpstreamMaxBytes(bad), ConfigError);
  });

  test("reach each source's limits", () => {
    const config = loadConfig({ TRAMITA_UPSTREAM_MAX_BYTES: 'stf=2MB', TRAMITA_UPSTREAM_IDLE_TIMEOUT_MS: '250' });
    assert.deepEqual(bodyLimits('stf', config), { maxBytes: 2 * 1024 * 1024, idleMs: 250 });
    assert.deepEqual(bodyLimits('datajud', config), { maxBytes: DEFAULT_UPSTREAM_MAX_BYTES.datajud, idleMs: 250 });
  });
});
