/** ChatCompletionsConnector against loopback node:http servers: the answer's fields, reasoning, retries and error mapping. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SourceError, type SourceFailure } from '../../platform/ports/source-error.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { connectSources } from '../index.ts';
import { ChatCompletionsConnector, stripThinking, type ChatCompletionsOptions } from './connector.ts';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: any;
}

interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Never answer. */
  hang?: boolean;
}

interface Upstream {
  baseUrl: string;
  calls: Seen[];
}

const servers: http.Server[] = [];
const connectors: ChatCompletionsConnector[] = [];
after(async () => {
  for (const c of connectors) await c.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A server whose n-th request (0-based) gets `replies[n]` (the last one repeats). */
async function upstream(...replies: Reply[]): Promise<Upstream> {
  const calls: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    calls.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body: text ? JSON.parse(text) : null });
    const reply = replies[Math.min(calls.length - 1, replies.length - 1)];
    if (reply.hang) return;
    const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, calls };
}

function connect(up: Upstream, options: Partial<ChatCompletionsOptions> = {}): ChatCompletionsConnector {
  const c = new ChatCompletionsConnector({ baseUrl: up.baseUrl, model: 'modelo-teste', retryDelaysMs: [5, 10], timeoutMs: 5_000, ...options });
  connectors.push(c);
  return c;
}

const completion = (content: unknown, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'modelo-servido',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
  ...extra,
});

const ask = (c: ChatCompletionsConnector) =>
  c.complete({
    messages: [
      { role: 'system', content: 'Resuma.' },
      { role: 'user', content: 'Fatos.' },
    ],
    maxTokens: 300,
  });

async function failure(promise: Promise<unknown>, expected: SourceFailure): Promise<SourceError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof SourceError, `expected a SourceError, got ${String(err)}`);
  assert.equal(err.source, 'modelo');
  assert.equal(err.failure, expected, err.message);
  return err;
}

test('a completion: the request sent, text, model, finish reason and usage read', async () => {
  const up = await upstream({ body: completion('  ## Resumo\n\nTexto.  ') });
  const c = connect(up, { apiKey: 'sk-secreta' });
  assert.deepEqual(c.info, { name: 'Modelo', sandbox: false, model: 'modelo-teste' });
  const answer = await ask(c);
  assert.deepEqual(answer, { text: '## Resumo\n\nTexto.', model: 'modelo-servido', finishReason: 'stop', promptTokens: 120, completionTokens: 40 });
  assert.equal(up.calls.length, 1);
  const [call] = up.calls;
  assert.equal(call.method, 'POST');
  assert.equal(call.url, '/v1/chat/completions');
  assert.equal(call.authorization, 'Bearer sk-secreta');
  assert.deepEqual(call.body, {
    model: 'modelo-teste',
    messages: [
      { role: 'system', content: 'Resuma.' },
      { role: 'user', content: 'Fatos.' },
    ],
    temperature: 0.2,
    max_tokens: 300,
    stream: false,
  });
});

test('without a key a placeholder bearer is still sent (Ollama wants one); no usage → null tokens, no model → the configured one', async () => {
  const up = await upstream({ body: { choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }] } });
  const answer = await connect(up, { baseUrl: `${up.baseUrl}/` }).complete({ messages: [{ role: 'user', content: 'x' }], maxTokens: 10, temperature: 0 });
  assert.equal(up.calls[0].authorization, 'Bearer tramita');
  assert.equal(up.calls[0].url, '/v1/chat/completions');
  assert.equal(up.calls[0].body.temperature, 0);
  assert.deepEqual(answer, { text: 'ok', model: 'modelo-teste', finishReason: 'stop', promptTokens: null, completionTokens: null });
});

test('content as an array of text parts', async () => {
  const up = await upstream({
    body: completion([
      { type: 'text', text: 'Primeira parte, ' },
      { type: 'text', text: 'segunda parte.' },
    ]),
  });
  assert.equal((await ask(connect(up))).text, 'Primeira parte, segunda parte.');
});

test('<think> reasoning is removed; reasoning_content is ignored', async () => {
  const up = await upstream({
    body: completion('<think>\nrazões internas\n</think>\n\n## Resumo\nTexto.', {
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: '<think>\nrazões internas\n</think>\n\n## Resumo\nTexto.', reasoning_content: 'mais razões' },
          finish_reason: 'stop',
        },
      ],
    }),
  });
  assert.equal((await ask(connect(up))).text, '## Resumo\nTexto.');
  assert.equal(stripThinking('<think>cortado no meio do raciocínio'), '');
  assert.equal(stripThinking('raciocínio sem abertura</think> resposta'), 'resposta');
  assert.equal(stripThinking('a <think>x</think>b'), 'a b');
});

test('finish_reason length is passed through', async () => {
  const up = await upstream({
    body: completion('## Resumo\nTexto cor', {
      choices: [{ index: 0, message: { role: 'assistant', content: '## Resumo\nTexto cor' }, finish_reason: 'length' }],
    }),
  });
  const answer = await ask(connect(up));
  assert.equal(answer.finishReason, 'length');
  assert.equal(answer.text, '## Resumo\nTexto cor');
});

test('429 with Retry-After is waited out and retried', async () => {
  const up = await upstream(
    { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } } },
    { body: completion('depois') },
  );
  assert.equal((await ask(connect(up))).text, 'depois');
  assert.equal(up.calls.length, 2);
});

test('429 asking to wait longer than maxRetryAfterMs: rate_limited with retryAfterMs, no retry', async () => {
  const up = await upstream({ status: 429, headers: { 'retry-after': '120' }, body: { error: { message: 'Rate limit reached' } } });
  const err = await failure(ask(connect(up)), 'rate_limited');
  assert.equal(err.retryAfterMs, 120_000);
  assert.equal(up.calls.length, 1);
});

test('503 twice, then an answer', async () => {
  const up = await upstream(
    { status: 503, body: { error: { message: 'overloaded' } } },
    { status: 503, body: 'Service Unavailable' },
    { body: completion('enfim') },
  );
  assert.equal((await ask(connect(up))).text, 'enfim');
  assert.equal(up.calls.length, 3);
});

test('5xx every time: unavailable after the retries', async () => {
  const up = await upstream({ status: 502, body: '<html>bad gateway</html>' });
  await failure(ask(connect(up, { retries: 1 })), 'unavailable');
  assert.equal(up.calls.length, 2);
});

test('401: unauthorized, not retried, the key never in the message', async () => {
  const up = await upstream({
    status: 401,
    body: { error: { message: 'Incorrect API key provided: sk-muito-secreta', type: 'invalid_request_error', code: 'invalid_api_key' } },
  });
  const err = await failure(ask(connect(up, { apiKey: 'sk-muito-secreta' })), 'unauthorized');
  assert.equal(up.calls.length, 1);
  assert.doesNotMatch(err.message, /sk-muito-secreta/);
  assert.match(err.message, /401/);
});

test('a context-length refusal (OpenAI, vLLM, llama.cpp): input_too_long, not retried', async () => {
  const bodies = [
    {
      error: {
        message: "This model's maximum context length is 4096 tokens. However, your messages resulted in 9000 tokens.",
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      },
    },
    { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.", type: 'BadRequestError', code: 400 },
    { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } },
  ];
  for (const body of bodies) {
    const up = await upstream({ status: 400, body });
    await failure(ask(connect(up)), 'input_too_long');
    assert.equal(up.calls.length, 1);
  }
});

test('another 400: malformed, not retried', async () => {
  const up = await upstream({ status: 400, body: { error: { message: "Invalid value for 'temperature'", type: 'invalid_request_error' } } });
  await failure(ask(connect(up)), 'malformed');
  assert.equal(up.calls.length, 1);
});

test('a body that is not JSON, no choices, no content: malformed, not retried', async () => {
  for (const body of [
    '{"choices": [{"mess',
    { object: 'chat.completion', choices: [] },
    { id: 'x' },
    { choices: [{ message: { role: 'assistant' }, finish_reason: 'stop' }] },
  ]) {
    const up = await upstream({ body });
    await failure(ask(connect(up)), 'malformed');
    assert.equal(up.calls.length, 1, JSON.stringify(body));
  }
});

test('a server that never answers: timeout', async () => {
  const up = await upstream({ hang: true });
  await failure(ask(connect(up, { timeoutMs: 200, retries: 0 })), 'timeout');
  assert.equal(up.calls.length, 1);
});

test('nobody listening: unavailable', async () => {
  const c = new ChatCompletionsConnector({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', retries: 0 });
  connectors.push(c);
  await failure(ask(c), 'unavailable');
});

test("the caller's abort ends the call with the abort reason", async () => {
  const up = await upstream({ hang: true });
  const controller = new AbortController();
  const pending = connect(up).complete({ messages: [{ role: 'user', content: 'x' }], maxTokens: 10, signal: controller.signal });
  setTimeout(() => controller.abort(new Error('parado')), 50);
  await assert.rejects(pending, { message: 'parado' });
});

test('connectSources: the model follows TRAMITA_SUMMARY_PROVIDER; modelo without a URL or the sandbox is refused at start', async () => {
  const base = { TRAMITA_SANDBOX: 'off', DATAJUD_URL: 'http://127.0.0.1:9' };
  const configured = connectSources(loadConfig({ ...base, TRAMITA_SUMMARY_URL: 'http://127.0.0.1:9/v1', TRAMITA_SUMMARY_MODEL: 'llama3.1:8b' }));
  assert.deepEqual(configured.model?.info, { name: 'Modelo', sandbox: false, model: 'llama3.1:8b' });
  await configured.close();
  const offline = connectSources(loadConfig({ ...base, TRAMITA_SUMMARY_URL: 'http://127.0.0.1:9/v1', TRAMITA_SUMMARY_PROVIDER: 'extrativo' }));
  assert.equal(offline.model, null);
  await offline.close();
  assert.throws(
    () => connectSources(loadConfig({ ...base, TRAMITA_SUMMARY_PROVIDER: 'modelo' })),
    (e: Error) => e instanceof ConfigError && /TRAMITA_SUMMARY_URL/.test(e.message),
  );
});
