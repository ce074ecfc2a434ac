/** One DataJud search against a fake server: request shape and the failure mapping (never "not found"). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../platform/clock.ts';
import { SourceError, type RetryableSourceError } from '../../platform/ports/source-error.ts';
import { DataJudClient } from './client.ts';
import { isDataJudFailure } from './errors.ts';
import { FakeDataJud, esResponse, indexNotFound, type Reply } from './testing/fake-datajud.ts';

async function withFake(
  reply: Reply | ((n: number) => Reply),
  run: (client: DataJudClient, fake: FakeDataJud) => Promise<void>,
  timeoutMs = 2_000,
): Promise<void> {
  let n = 0;
  const fake = await FakeDataJud.start(() => (typeof reply === 'function' ? reply(++n) : reply));
  const client = new DataJudClient({ baseUrl: `${fake.url}/`, apiKey: 'k3y==', timeoutMs, clock: new ManualClock('2026-01-01T00:00:00Z') });
  try {
    await run(client, fake);
  } finally {
    await client.close();
    await fake.close();
  }
}

async function failure(promise: Promise<unknown>): Promise<RetryableSourceError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(isDataJudFailure(err), `expected a DataJud failure, got ${String(err)}`);
    assert.ok(err instanceof SourceError);
    assert.equal(err.source, 'datajud');
    return err;
  }
  assert.fail('expected a failure');
}

test('a search is one POST <base>/<alias>/_search with the APIKey header and a JSON body', async () => {
  await withFake({ json: esResponse([{ _index: 'api_publica_trf4', _id: 'X', _source: { numeroProcesso: '1' }, sort: [5] }]) }, async (client, fake) => {
    const result = await client.search('api_publica_tre-sp', { size: 0 });
    assert.equal(result.hits.length, 1);
    assert.deepEqual(result.hits[0].sort, [5]);
    assert.equal(result.shardsFailed, 0);
    assert.equal(fake.requests.length, 1);
    const [req] = fake.requests;
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/api_publica_tre-sp/_search');
    assert.equal(req.headers.authorization, 'APIKey k3y==');
    assert.match(String(req.headers['content-type']), /^application\/json/);
    assert.deepEqual(req.body, { size: 0 });
  });
});

test('HTTP failures map to SourceFailure kinds', async () => {
  const cases: Array<[Reply, string, boolean]> = [
    [{ status: 401, json: { error: 'unauthorized' } }, 'unauthorized', false],
    [{ status: 403, json: { error: { type: 'security_exception', reason: 'forbidden' } } }, 'unauthorized', false],
    [indexNotFound('api_publica_stf'), 'no_index', false],
    [{ status: 404, text: 'Not Found' }, 'unavailable', false],
    [{ status: 400, json: { error: { type: 'parsing_exception', reason: 'bad query' } } }, 'unavailable', false],
    [{ status: 500, text: 'boom' }, 'unavailable', true],
    [{ status: 503, text: '' }, 'unavailable', true],
    [{ status: 429, headers: { 'retry-after': '3' }, text: '' }, 'rate_limited', true],
    [{ text: 'not json' }, 'malformed', true],
    [{ json: { hello: 'world' } }, 'malformed', true],
    [{ json: { hits: { hits: 'nope' } } }, 'malformed', true],
  ];
  for (const [reply, kind, retryable] of cases) {
    await withFake(reply, async (client) => {
      const err = await failure(client.search('api_publica_trf4', { size: 0 }));
      assert.equal(err.failure, kind, `${reply.status ?? 200} ${reply.text ?? JSON.stringify(reply.json)}`);
      assert.equal(err.retryable, retryable, `${reply.status}: retryable`);
      if (reply.status === 429) assert.equal(err.retryAfterMs, 3_000);
      assert.ok(!err.message.includes('k3y=='), 'the key never appears in messages');
    });
  }
});

test('no answer within timeoutMs is a timeout, not a wait for the upstream', async () => {
  // The fake would answer after ten minutes: the client's own timeout is the only way this call ends.
  await withFake(
    { delayMs: 600_000, json: esResponse([]) },
    async (client, fake) => {
      const err = await failure(client.search('api_publica_trf4', {}));
      assert.equal(err.failure, 'timeout');
      assert.ok(fake.requests.length >= 1, 'the request went out and was abandoned');
    },
    150,
  );
});

test('a dropped connection or a closed port is unavailable', async () => {
  await withFake({ hangUp: true }, async (client) => {
    assert.equal((await failure(client.search('api_publica_trf4', {}))).failure, 'unavailable');
  });
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const client = new DataJudClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', timeoutMs: 2_000 });
  try {
    assert.equal((await failure(client.search('api_publica_trf4', {}))).failure, 'unavailable');
  } finally {
    await client.close();
  }
});

test("the caller's abort rejects with its reason, not a SourceError", async () => {
  await withFake({ delayMs: 3_000, json: esResponse([]) }, async (client) => {
    const ctl = new AbortController();
    const pending = client.search('api_publica_trf4', {}, { signal: ctl.signal });
    setTimeout(() => ctl.abort(new Error('caller gave up')), 30);
    await assert.rejects(pending, /caller gave up/);
  });
});
