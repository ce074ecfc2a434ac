/** The simulated chat-completions model over real HTTP on 127.0.0.1: its answers, its errors and its knobs. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSandbox, type TestSandbox } from '../testing.ts';
import { SANDBOX_MODEL } from './server.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const FACTS = {
  numeroCnjFormatado: '1001302-42.2024.8.26.0100',
  tribunal: 'TJSP',
  valorCausaCentavos: 123_456,
  movimentosTotal: 2,
  partes: null,
  publicacoes: [],
  instancias: [{ classe: { nome: 'Procedimento Comum Cível' }, orgaoJulgador: { nome: '3ª Vara Cível' }, dataAjuizamento: '2024-03-05' }],
  movimentos: [
    { nome: 'Conclusão', dataHora: '2024-06-01T14:00:00Z' },
    { nome: 'Distribuição', dataHora: '2024-03-06T12:00:00Z' },
  ],
};
const PROMPT = `Resuma o processo.\n\n\`\`\`json\n${JSON.stringify(FACTS)}\n\`\`\``;

async function complete(body: Record<string, unknown>, headers: Record<string, string> = { authorization: 'Bearer qualquer' }) {
  const res = await fetch(`${sb.llmUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}
const ask = (extra: Record<string, unknown> = {}) =>
  complete({ model: SANDBOX_MODEL, messages: [{ role: 'user', content: PROMPT }], max_tokens: 1000, ...extra });

test('a completion: Portuguese text written from the facts of the prompt, usage, finish_reason stop; the same prompt, the same answer', async () => {
  const { status, body } = await ask();
  assert.equal(status, 200);
  assert.equal(body.object, 'chat.completion');
  assert.equal(body.model, SANDBOX_MODEL);
  const [choice] = body.choices;
  assert.equal(choice.finish_reason, 'stop');
  assert.equal(choice.message.role, 'assistant');
  for (const part of ['## Resumo', 'Procedimento Comum Cível', 'R$ 1.234,56', '05/03/2024', 'A fonte não informa as partes.', `(${SANDBOX_MODEL})`]) {
    assert.ok(choice.message.content.includes(part), part);
  }
  assert.equal(body.usage.prompt_tokens, Math.ceil(PROMPT.length / 4));
  assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + body.usage.completion_tokens);
  assert.deepEqual((await ask()).body.choices, body.choices);
});

test('max_tokens too small: the text is cut and finish_reason is length', async () => {
  const { body } = await ask({ max_tokens: 20 });
  assert.equal(body.choices[0].finish_reason, 'length');
  assert.ok(body.choices[0].message.content.length <= 80);
});

test('OpenAI-shaped errors: no key 401, an unknown model 404, streaming or bad JSON 400; GET /models lists the model', async () => {
  assert.equal((await ask()).status, 200);
  const noKey = await complete({ model: SANDBOX_MODEL, messages: [{ role: 'user', content: 'oi' }] }, {});
  assert.equal(noKey.status, 401);
  assert.equal(noKey.body.error.code, 'invalid_api_key');
  const unknown = await complete({ model: 'gpt-4o', messages: [{ role: 'user', content: 'oi' }] });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, 'model_not_found');
  assert.equal((await ask({ stream: true })).status, 400);
  const bad = await fetch(`${sb.llmUrl}/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer x' }, body: '{' });
  assert.equal(bad.status, 400);
  const models = (await (await fetch(`${sb.llmUrl}/models`, { headers: { authorization: 'Bearer x' } })).json()) as { data: { id: string }[] };
  assert.deepEqual(
    models.data.map((m) => m.id),
    [SANDBOX_MODEL],
  );
});

test('knobs over HTTP: set for N completions, then back to normal; a bad setting is a 400; DELETE resets', async () => {
  const put = (body: unknown) => fetch(`${sb.url}/_sandbox/llm`, { method: 'PUT', body: JSON.stringify(body) });
  assert.equal((await put({ think: 'yes' })).status, 400);
  assert.equal((await put({ colour: true })).status, 400);
  assert.equal((await put({ contextError: true, times: 1 })).status, 200);
  const long = { messages: [{ role: 'user', content: `${PROMPT}\n${'fatos '.repeat(200)}` }] };
  const refused = await ask(long);
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.code, 'context_length_exceeded');
  assert.equal((await ask(long)).status, 200, 'times: 1 is spent');
  await put({ think: true, silentTruncationChars: 50 });
  const odd = await ask();
  assert.match(odd.body.choices[0].message.content, /^<think>/);
  assert.equal(odd.body.usage.prompt_tokens, Math.ceil(50 / 4), 'it read only the end of the prompt');
  assert.match(odd.body.choices[0].message.content, /incompletos/, 'and could not see the facts');
  await put({ emptyChoices: true });
  assert.deepEqual((await ask()).body.choices, []);
  const reset = (await (await fetch(`${sb.url}/_sandbox/llm`, { method: 'DELETE' })).json()) as Record<string, unknown>;
  assert.equal(reset.emptyChoices, false);
  assert.equal((await ask()).body.choices.length, 1);
});

test('the fault layer reaches the model like any upstream, with OpenAI-shaped bodies and Retry-After', async () => {
  sb.faults.set({ upstream: 'llm', status: 429, retryAfterSeconds: 7, times: 1 });
  const limited = await ask();
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get('retry-after'), '7');
  assert.equal(limited.body.error.code, 'rate_limit_exceeded');
  sb.faults.set({ upstream: 'llm', status: 503, times: 1 });
  const down = await ask();
  assert.equal(down.status, 503);
  assert.equal(down.body.error.type, 'server_error');
  assert.equal((await ask()).status, 200);
  assert.equal(sb.stats().llm.responses['429'], 1);
});
