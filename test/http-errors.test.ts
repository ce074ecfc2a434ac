/** Bad input is a precise 4xx naming the problem and the field, never a 500 or a stack trace (spec §7). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
  ['an empty JSON body', () => post(''), 400, 'INVALID_JSON'],
  ['a JSON array where an object is expected', () => post('[1,2]'), 400, 'INVALID_BODY'],
  ['a wrong content type', () => post('nome=x', 'application/x-www-form-urlencoded'), 400, 'UNSUPPORTED_CONTENT_TYPE'],
  ['an oversized body', () => post(JSON.stringify({ nome: 'x'.repeat(4096) })), 400, 'BODY_TOO_LARGE'],
  ['a missing required field', () => post('{}'), 400, 'MISSING_PARAMETER', { field: 'nome', in: 'body' }],
  ['an unknown field', () => post('{"nome":"x","cor":"azul"}'), 400, 'UNKNOWN_PARAMETER', { field: 'cor', in: 'body' }],
  ['a field of the wrong type', () => post('{"nome":"x","quantidade":"muitos"}'), 400, 'INVALID_PARAMETER', { field: 'quantidade', in: 'body' }],
  ['a field out of range', () => post('{"nome":"x","quantidade":99}'), 400, 'INVALID_PARAMETER', { field: 'quantidade', in: 'body' }],
  ['a prototype-poisoning body', () => post('{"nome":"x","__proto__":{"admin":true}}'), 400, 'INVALID_JSON'],
  ['a malformed query value', () => h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=abc', headers: a.headers }), 400, 'INVALID_PARAMETER', { field: 'delayMs', in: 'query' }],
  ['an unknown route', () => h.inject({ method: 'GET', url: '/v1/processos/nada/aqui', headers: a.headers }), 404, 'ROUTE_NOT_FOUND'],
  ['an unknown method on a known path', () => h.inject({ method: 'DELETE', url: '/v1/conta/saldo', headers: a.headers }), 404, 'ROUTE_NOT_FOUND'],
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
