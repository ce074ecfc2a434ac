/** The simulated STF gazette over real HTTP on 127.0.0.1: the CSRF handshake, the search's rules and paging, the knobs. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestSandbox, type TestSandbox } from '../testing.ts';
import { STF_API_PREFIX } from './server.ts';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox();
});
after(() => sb.close());

const api = () => `${sb.stfUrl}${STF_API_PREFIX}`;
const BRT = 3 * 3_600_000;

/** GET /ultimo-dje: the day and the session (the cookies a client keeps). */
async function handshake() {
  const res = await fetch(`${api()}/ultimo-dje`);
  assert.equal(res.status, 200);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  const token = cookies.find((c) => c.startsWith('XSRF-TOKEN='))!.slice('XSRF-TOKEN='.length);
  return { day: await res.json() as string, cookie: cookies.join('; '), token };
}

function dayWindow(day: string) {
  const start = Date.parse(`${day}T00:00:00.000Z`) + BRT;
  return { data: start, dataFim: start + 86_400_000 - 1 };
}

async function search(session: { cookie: string; token: string }, body: Record<string, unknown>, token = session.token) {
  const res = await fetch(`${api()}/publicacoes`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-xsrf-token': token },
    body: JSON.stringify({ termo: '', processo: '', pagina: 1, quantidade: 500, tipoPesquisa: ['DIVULGACAO'], filtros: { Tipo: [], Relator: [], Sessão: [], Colegiado: [] }, ...body }),
  });
  return { status: res.status, text: await res.text() };
}

test('ultimo-dje is a business day, with the XSRF-TOKEN and JSESSIONID cookies; a search without the token is the 403 with its literal body', async () => {
  const s = await handshake();
  assert.match(s.day, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok(![0, 6].includes(new Date(`${s.day}T12:00:00Z`).getUTCDay()));
  const refused = await search(s, dayWindow(s.day), 'wrong');
  assert.deepEqual([refused.status, refused.text], [403, 'An expected CSRF token cannot be found']);
  const ok = await search(s, dayWindow(s.day));
  assert.equal(ok.status, 200);
  const body = JSON.parse(ok.text);
  assert.ok(body.publicacoes.length > 0 && body.total === body.publicacoes.length);
  const item = body.publicacoes[0];
  assert.equal(Object.keys(item).length, 18);
  assert.match(item.divulgacao, /^\d{2}\/\d{2}\/\d{4}$/);
  assert.match(item.texto, /^<div/);
  assert.ok(body.publicacoes.some((p: any) => p.envolvidos.some((e: any) => e.identificacoes.some((i: string) => /^OAB [\d.A-Z]+\/[A-Z]{2}$/.test(i)))), 'lawyers with their OAB');
});

test('the rules: quantidade over 500 and an accented termo are 422; total only on page 1; a termo finds all its words', async () => {
  const s = await handshake();
  const w = dayWindow(s.day);
  assert.deepEqual(JSON.parse((await search(s, { ...w, quantidade: 501 })).text), { userMessage: 'deve ser menor ou igual a 500' });
  assert.equal((await search(s, { ...w, termo: 'ação' })).status, 422);
  const all = JSON.parse((await search(s, w)).text);
  const page2 = JSON.parse((await search(s, { ...w, quantidade: 5, pagina: 2 })).text);
  assert.equal(page2.total, 0, 'total is valid on page 1 only');
  assert.deepEqual(page2.publicacoes.map((p: any) => p.id), all.publicacoes.slice(5, 10).map((p: any) => p.id));
  const someone = all.publicacoes[0].envolvidos[0].nome.split(' ');
  const found = JSON.parse((await search(s, { ...w, termo: `${someone[0]} ${someone.at(-1)}`.normalize('NFD').replace(/[\u0300-\u036f]/g, '') })).text);
  assert.ok(found.publicacoes.some((p: any) => p.id === all.publicacoes[0].id));
});

test('knobs: a WAF challenge is a 202 with x-amzn-waf-action; expired sessions get the 403 until the handshake is redone', async () => {
  const s = await handshake();
  sb.stf.knobs.set({ wafChallenge: true });
  const challenged = await fetch(`${api()}/ultimo-dje`);
  assert.deepEqual([challenged.status, challenged.headers.get('x-amzn-waf-action')], [202, 'challenge']);
  sb.stf.knobs.set({ expireSessions: true });
  assert.equal((await search(s, dayWindow(s.day))).status, 403);
  sb.stf.knobs.reset();
  const again = await handshake();
  assert.equal((await search(again, dayWindow(again.day))).status, 200);
});
