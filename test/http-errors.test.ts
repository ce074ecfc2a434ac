/** Bad input is a precise 4xx naming the problem and the field, never a 500 or a stack trace (spec §7). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createHarness, json } from './harness.ts';
import { testRoutes } from './routes.ts';

const h = await createHarness({ extraRoutes: testRoutes, env: { TRAMITA_BODY_LIMIT_BYTES: '2048' } });
const a = await h.createAccount({ credits: 1000 });
test.after(() => h.close());

function post(payload: string, contentType = 'application/json') {
  return h.inject({ method: 'POST', url: '/v1/test/orders', headers: { ...a.headers, 'content-type': contentType }, payload });
}

const cases: [string, () => ReturnType<typeof post>, number, string, Record<string, unknown>?][] = [
  ['invalid JSON', () => post('{"nome": '), 400, 'INVALID_JSON'],
  // An empty body is no body (issue 13): the route then names the first field it needs.
  ['an empty JSON body where fields are required', () => post(''), 400, 'MISSING_PARAMETER', { field: 'nome', in: 'body' }],
  ['a JSON array where an object is expected', () => post('[1,2]'), 400, 'INVALID_BODY'],
  ['a wrong content type', () => post('nome=x', 'application/x-www-form-urlencoded'), 400, 'UNSUPPORTED_CONTENT_TYPE'],
  ['an oversized body', () => post(JSON.stringify({ nome: 'x'.repeat(4096) })), 413, 'BODY_TOO_LARGE'],
  ['a missing required field', () => post('{}'), 400, 'MISSING_PARAMETER', { field: 'nome', in: 'body' }],
  ['an unknown field', () => post('{"nome":"x","cor":"azul"}'), 400, 'UNKNOWN_PARAMETER', { field: 'cor', in: 'body' }],
  ['a field of the wrong type', () => post('{"nome":"x","quantidade":"muitos"}'), 400, 'INVALID_PARAMETER', { field: 'quantidade', in: 'body' }],
  ['a field out of range', () => post('{"nome":"x","quantidade":99}'), 400, 'INVALID_PARAMETER', { field: 'quantidade', in: 'body' }],
  ['a prototype-poisoning body', () => post('{"nome":"x","__proto__":{"admin":true}}'), 400, 'INVALID_JSON'],
  [
    'a malformed query value',
    () => h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=abc', headers: a.headers }),
    400,
    'INVALID_PARAMETER',
    { field: 'delayMs', in: 'query' },
  ],
  ['an unknown route', () => h.inject({ method: 'GET', url: '/v1/processos/nada/aqui', headers: a.headers }), 404, 'ROUTE_NOT_FOUND'],
  ['an unknown method on a known path', () => h.inject({ method: 'DELETE', url: '/v1/conta/saldo', headers: a.headers }), 405, 'METHOD_NOT_ALLOWED'],
  // What the fuzz drills found answering 500 (issue 14): each is refused before it reaches a handler or the database.
  [
    'a body nested deeper than 32 levels, with an Idempotency-Key',
    () =>
      h.inject({
        method: 'POST',
        url: '/v1/test/orders',
        headers: { ...a.headers, 'content-type': 'application/json', 'idempotency-key': 'deep-1' },
        payload: `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`,
      }),
    400,
    'INVALID_BODY',
    { in: 'body' },
  ],
  ['a deeply nested array body', () => post('['.repeat(1_000) + ']'.repeat(1_000)), 400, 'INVALID_BODY'],
  ['a NUL character in a body string', () => post('{"nome":"a\\u0000b"}'), 400, 'INVALID_BODY', { field: 'nome', in: 'body' }],
  ['a body number too large to be finite (1e309)', () => post('{"nome":"x","quantidade":1e309}'), 400, 'INVALID_BODY', { field: 'quantidade', in: 'body' }],
  [
    '?limit=Infinity',
    () => h.inject({ method: 'GET', url: '/v1/monitoramentos/processos?limit=Infinity', headers: a.headers }),
    400,
    'INVALID_PARAMETER',
    { field: 'limit', in: 'query' },
  ],
  [
    '?limit=1e309',
    () => h.inject({ method: 'GET', url: '/v1/monitoramentos/processos?limit=1e309', headers: a.headers }),
    400,
    'INVALID_PARAMETER',
    { field: 'limit', in: 'query' },
  ],
  [
    '?limit=-Infinity',
    () => h.inject({ method: 'GET', url: '/v1/conta/extrato?limit=-Infinity', headers: a.headers }),
    400,
    'INVALID_PARAMETER',
    { field: 'limit', in: 'query' },
  ],
  [
    'a NUL character in a path parameter',
    () => h.inject({ method: 'GET', url: '/v1/monitoramentos/processos/%00', headers: a.headers }),
    400,
    'INVALID_PARAMETER',
    { field: 'id', in: 'path' },
  ],
  [
    'a NUL character in a query value',
    () => h.inject({ method: 'GET', url: '/v1/busca/termo?q=ab%00cd', headers: a.headers }),
    400,
    'INVALID_PARAMETER',
    { field: 'q', in: 'query' },
  ],
  [
    'a malformed URL (a % not followed by two hex digits)',
    () => h.inject({ method: 'GET', url: '/v1/processos/cnj/%zz', headers: a.headers }),
    400,
    'MALFORMED_URL',
  ],
  [
    'a one-element array where a nullable string is expected (JSON bodies are never unwrapped)',
    () => h.inject({ method: 'PUT', url: '/v1/conta/webhook', headers: { ...a.headers, 'content-type': 'application/json' }, payload: '{"token":["abc"]}' }),
    400,
    'INVALID_PARAMETER',
    { field: 'token', in: 'body', type: 'string' },
  ],
  [
    'a one-element array where a number is expected in a body',
    () => post('{"nome":"x","quantidade":[2]}'),
    400,
    'INVALID_PARAMETER',
    { field: 'quantidade', in: 'body' },
  ],
  [
    'a path segment over 100 characters',
    () => h.inject({ method: 'GET', url: `/v1/processos/cnj/${'1'.repeat(200)}`, headers: a.headers }),
    414,
    'URI_TOO_LONG',
  ],
];

for (const [what, send, status, code, details] of cases) {
  test(`${what} is ${status} ${code}`, async () => {
    const res = await send();
    assert.equal(res.statusCode, status, res.body);
    const body = json(res);
    assert.equal(body.error.code, code);
    assert.ok(body.error.message.length > 0);
    if (details) for (const [k, v] of Object.entries(details)) assert.equal(body.error.details?.[k], v, `details.${k}`);
    assert.doesNotMatch(res.body, /\bat .*\(.*:\d+:\d+\)|node_modules/, 'no stack trace');
  });
}

test('nothing was charged for any of the bad requests', async () => {
  const ledger = await h.services.db.selectFrom('ledger').selectAll().where('account_id', '=', a.accountId).where('kind', '=', 'debit').execute();
  assert.equal(ledger.length, 0);
});

/** Sends raw bytes on a new connection and returns everything the server wrote before it closed. */
async function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let got = '';
    socket.setEncoding('utf8').on('data', (d: string) => {
      got += d;
    });
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
  });
}

test('requests Node cannot even parse get the envelope with a code and Connection: close, over a real socket', async (t) => {
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  t.after(() => h.app.server.close());
  const { port } = h.app.server.address() as net.AddressInfo;
  for (const [request, status, code] of [
    [`GET /v1/conta/saldo HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
    ['NOT AN HTTP REQUEST\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ] as const) {
    const answer = await raw(port, request);
    const [head, body] = answer.split('\r\n\r\n');
    assert.match(head, new RegExp(`^HTTP/1.1 ${status} `), answer);
    assert.match(head, /\r\nConnection: close(\r\n|$)/i, 'a keep-alive client is told the connection ends');
    assert.equal(JSON.parse(body).error.code, code);
    assert.match(head, /\r\nx-request-id: req_/i);
  }
});

test('an action that needs no body runs with none, an empty one, or Content-Type: application/json and nothing', async () => {
  const variants: Record<string, string>[] = [{}, { 'content-type': 'application/json' }, { 'content-type': 'text/plain' }];
  for (const extra of variants) {
    const res = await h.inject({
      method: 'POST',
      url: '/v1/conta/webhook/segredo',
      headers: { ...a.headers, ...extra },
      ...(extra['content-type'] ? { payload: '' } : {}),
    });
    assert.equal(res.statusCode, 200, `${JSON.stringify(extra)}: ${res.body}`);
    assert.match(json(res).data.segredo, /^whsec_/);
  }
  const del = await h.inject({
    method: 'DELETE',
    url: '/v1/monitoramentos/processos/mon_inexistente',
    headers: { ...a.headers, 'content-type': 'application/json' },
  });
  assert.equal(del.statusCode, 404, 'reaches the route: an empty DELETE with a JSON content type is not a bad body');
  assert.equal(json(del).error.code, 'NOT_FOUND');
});

test('messages are Portuguese by default, with the English text in detail; Accept-Language: en answers English', async () => {
  const url = '/v1/processos/cnj/1234567-00.2020.8.26.0001';
  const pt = json(await h.inject({ method: 'GET', url, headers: a.headers }));
  assert.equal(pt.error.code, 'INVALID_CNJ');
  assert.match(pt.error.message, /número CNJ é inválido/);
  assert.match(pt.error.detail, /check digits/);
  const en = json(await h.inject({ method: 'GET', url, headers: { ...a.headers, 'accept-language': 'en-US,en;q=0.9' } }));
  assert.match(en.error.message, /check digits/);
  assert.equal(en.error.detail, undefined);
  const field = json(await h.inject({ method: 'GET', url: '/v1/conta/extrato?limit=0', headers: a.headers }));
  assert.match(field.error.message, /Campo: limit \(na query\)/, 'names the field in Portuguese');
});

test('a known path with the wrong method is 405 with Allow; an enum names every allowed value; an unknown parameter names the accepted ones', async () => {
  const wrong = await h.inject({ method: 'PATCH', url: '/v1/monitoramentos/processos/mon_x', headers: a.headers });
  assert.equal(wrong.statusCode, 405);
  assert.equal(json(wrong).error.code, 'METHOD_NOT_ALLOWED');
  assert.deepEqual(wrong.headers.allow!.split(', ').sort(), ['DELETE', 'GET', 'HEAD']);
  assert.equal((await h.inject({ method: 'GET', url: '/v1/nao-existe', headers: a.headers })).statusCode, 404);

  const bad = json(
    await h.inject({
      method: 'POST',
      url: '/v1/monitoramentos/processos',
      headers: a.headers,
      payload: { numero_cnj: '5001234-56.2024.4.04.7100', frequencia: 'ANUAL' },
    }),
  );
  assert.equal(bad.error.code, 'INVALID_PARAMETER');
  assert.deepEqual(bad.error.details.allowedValues, ['HORARIA', 'DIARIA', 'SEMANAL', 'MENSAL']);
  assert.match(bad.error.message, /Valores aceitos: HORARIA, DIARIA, SEMANAL, MENSAL/);

  const unknown = json(await h.inject({ method: 'GET', url: '/v1/conta/extrato?pagina=2', headers: a.headers }));
  assert.equal(unknown.error.code, 'UNKNOWN_PARAMETER');
  assert.deepEqual(unknown.error.details.accepted, ['limit', 'cursor', 'page']);
  assert.match(unknown.error.message, /Parâmetros aceitos: limit, cursor, page/);
});
