/**
 * Administrative processes through HTTP against the sandbox's Protocolo Integrado (spec §4.7, issue
 * 17): the covered bodies with their source and date; a lookup answered from the source, then from
 * the store, charged each time it answers; NUP validation vectors and an uncovered body, checked
 * before the source is asked; "not found", a captcha page and every source failure uncharged; the
 * POST options; and the page reader on markup it was not written against.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { formatNup, nupCheckDigits } from '../../platform/identifiers/nup.ts';
import { readDetailPage } from '../../sources/protocolo/page.ts';
import { sandboxNups } from './testing.ts';

const h = await createHarness({
  env: {
    DJEN_TIMEOUT_MS: '300',
    TRAMITA_DEV_TIME_SCALE: '1000',
    TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s,reference=100000/60s',
  },
});
test.after(() => h.close());
const sandbox = h.sources.sandbox!;
const PRICE = 10; // administrativos.nup in config/prices.json
const { encontrado, naoEncontrado } = sandboxNups(h);
const lookup = (acc: TestAccount, nup: string, payload?: object) =>
  h.inject(
    payload === undefined
      ? { method: 'GET', url: `/v1/processos/administrativos/nup/${encodeURIComponent(nup)}`, headers: acc.headers }
      : { method: 'POST', url: `/v1/processos/administrativos/nup/${encodeURIComponent(nup)}`, headers: acc.headers, payload },
  );

async function charged(acc: TestAccount): Promise<number[]> {
  const rows = await h.services.db
    .selectFrom('ledger')
    .select('delta_centavos')
    .where('account_id', '=', acc.accountId)
    .where('kind', '=', 'debit')
    .orderBy('created_at')
    .execute();
  return rows.map((r) => Math.abs(Number(r.delta_centavos)));
}

const protocoloRequests = () => sandbox.stats().protocolo.requests;

test(
  'GET /v1/orgaos-administrativos lists the covered bodies with their codes, sphere, what ' + "can be fetched, and the list's source and date; free",
  async () => {
    const acc = await h.createAccount({ credits: 0 });
    const res = await h.inject({ method: 'GET', url: '/v1/orgaos-administrativos', headers: acc.headers });
    assert.equal(res.statusCode, 200, res.body);
    const d = json(res).data;
    assert.match(d.data, /^\d{4}-\d{2}-\d{2}$/);
    assert.match(d.fonte, /unidade protocolizadora/i);
    assert.equal(d.quantidade, d.orgaos.length);
    const cgu = d.orgaos.find((o: any) => o.sigla === 'CGU');
    assert.deepEqual(
      [cgu.codigo, cgu.esfera, cgu.fonte, cgu.recursos],
      ['00190', 'FEDERAL', 'PROTOCOLO_INTEGRADO', { consulta: true, tramitacoes: true, monitoramento: true, documentos: false }],
    );
    assert.ok(d.orgaos.every((o: any) => o.codigos.every((c: string) => /^\d{5}$/.test(c))));
  },
);

test('a sandbox NUP: subject, parties, body, tramitações newest first and the source; then from the store; each answer charged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const res = await lookup(acc, formatNup(encontrado));
  assert.equal(res.statusCode, 200, res.body);
  const { data: d, meta } = json(res);
  const expected = sandbox.protocolo.find(encontrado, h.services.clock.now().getTime())!;
  assert.equal(d.nup, formatNup(encontrado));
  assert.deepEqual(d.orgao, { sigla: 'CGU', nome: 'Controladoria-Geral da União', esfera: 'FEDERAL', unidadeProtocolizadora: '00190' });
  assert.equal(d.assunto, expected.assunto);
  assert.deepEqual(
    d.interessados.map((i: any) => i.nome),
    expected.interessados,
  );
  assert.equal(d.orgaoOrigem, expected.orgao);
  assert.equal(d.quantidadeTramitacoes, expected.movements.length);
  assert.deepEqual(
    d.tramitacoes.map((t: any) => t.operacao),
    expected.movements.map((m) => m.operacao).reverse(),
  );
  assert.equal(
    Date.parse(d.tramitacoes.at(-1).dataHora),
    Math.floor(expected.movements[0].at / 60_000) * 60_000,
    'minutes of Brasília wall time, read back to the same instant',
  );
  assert.deepEqual(d.ultimaTramitacao, d.tramitacoes[0]);
  assert.deepEqual([d.tramitacoes[0].unidadeOrigem, d.tramitacoes[0].unidadeDestino], [expected.movements.at(-1)!.origem, expected.movements.at(-1)!.destino]);
  assert.deepEqual([d.fonte.nome, d.fonte.sandbox, d.fonte.url], ['Protocolo Integrado', true, null]);
  assert.equal(meta.source.servedFrom, 'source');

  const before = protocoloRequests();
  const again = json(await lookup(acc, encontrado));
  assert.equal(again.meta.source.servedFrom, 'store');
  assert.deepEqual(again.data, d);
  assert.equal(protocoloRequests(), before, 'a fresh stored copy does not reach the source');
  assert.deepEqual(await charged(acc), [PRICE, PRICE]);
});

test('NUP vectors: malformed is 400 INVALID_NUP, an uncovered protocol unit 422 BODY_NOT_COVERED, both before the source and uncharged', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const before = protocoloRequests();
  const wrongDv = `${encontrado.slice(0, 15)}${encontrado.slice(15) === '00' ? '11' : '00'}`;
  for (const bad of ['123', '00190.000001/2024', `${encontrado}9`, 'abcde.000001/2024-00', wrongDv, '00190-000001-2024-00']) {
    const res = await lookup(acc, bad);
    assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
    assert.equal(json(res).error.code, 'INVALID_NUP', bad);
  }
  const uncovered = `99999000001${'2024'}${nupCheckDigits('999990000012024')}`;
  const res = await lookup(acc, uncovered);
  assert.equal(res.statusCode, 422, res.body);
  assert.deepEqual([json(res).error.code, json(res).error.details.unidade], ['BODY_NOT_COVERED', '99999']);
  assert.equal(protocoloRequests(), before);
  assert.deepEqual(await charged(acc), []);
});

test('a NUP the source does not have is 404, a captcha page and every failure of the source an uncharged error, never "not found"', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const missing = await lookup(acc, naoEncontrado);
  assert.deepEqual([missing.statusCode, json(missing).error.code], [404, 'ADMINISTRATIVE_PROCESS_NOT_FOUND']);
  const fresh = `${encontrado.slice(0, 5)}000002${encontrado.slice(11, 15)}${nupCheckDigits(`${encontrado.slice(0, 5)}000002${encontrado.slice(11, 15)}`)}`;
  sandbox.protocolo.set({ captcha: true });
  try {
    const res = await lookup(acc, fresh);
    assert.equal(res.statusCode, 503, res.body);
    assert.deepEqual([json(res).error.code, json(res).error.details.failure], ['SOURCE_UNAVAILABLE', 'captcha']);
    assert.match(json(res).error.message, /captcha/);
  } finally {
    sandbox.protocolo.reset();
  }
  for (const [fault, status, code] of [
    [{ status: 503 }, 503, 'SOURCE_UNAVAILABLE'],
    [{ hang: true }, 504, 'SOURCE_TIMEOUT'],
    [{ malformed: true }, 503, 'SOURCE_UNAVAILABLE'],
  ] as const) {
    sandbox.faults.set({ upstream: 'protocolo', ...fault });
    try {
      const res = await lookup(acc, fresh);
      assert.deepEqual([res.statusCode, json(res).error.code], [status, code], `${JSON.stringify(fault)}: ${res.body}`);
    } finally {
      sandbox.faults.reset();
    }
  }
  assert.deepEqual(await charged(acc), []);
  assert.equal((await lookup(acc, fresh)).statusCode, 200, 'the source back: answered and charged');
  assert.deepEqual(await charged(acc), [PRICE]);
});

test("POST: dias_ultima_atualizacao 0 asks the source again; orgao must be the NUP's own body; enviar_callback needs a webhook", async () => {
  const acc = await h.createAccount({ credits: 1000 });
  assert.equal((await lookup(acc, encontrado)).statusCode, 200);
  const before = protocoloRequests();
  const res = await lookup(acc, encontrado, { dias_ultima_atualizacao: 0, orgao: 'cgu', fonte: 'PROTOCOLO_INTEGRADO' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).meta.source.servedFrom, 'source');
  assert.ok(protocoloRequests() > before);
  const wrong = await lookup(acc, encontrado, { orgao: 'ANATEL' });
  assert.deepEqual([wrong.statusCode, json(wrong).error.code, json(wrong).error.details.field], [400, 'INVALID_PARAMETER', 'orgao']);
  const unknownField = await lookup(acc, encontrado, { orgao: 'CGU', dias: 3 });
  assert.equal(unknownField.statusCode, 400);
  const callback = await lookup(acc, encontrado, { enviar_callback: true });
  assert.deepEqual([callback.statusCode, json(callback).error.code], [422, 'WEBHOOK_NOT_CONFIGURED']);
  assert.deepEqual(await charged(acc), [PRICE, PRICE]);
});

test('enviar_callback: resultado_processo_async reaches the account feed when the lookup ends, SUCESSO or ERRO', async () => {
  const acc = await h.createAccount({ credits: 1000 });
  const put = await h.inject({ method: 'PUT', url: '/v1/conta/webhook', headers: acc.headers, payload: { url: 'http://127.0.0.1:9/hook' } });
  assert.equal(put.statusCode, 200, put.body);
  assert.equal((await lookup(acc, encontrado, { enviar_callback: true })).statusCode, 200);
  assert.equal((await lookup(acc, naoEncontrado, { send_callback: true })).statusCode, 404);
  const events = await h.services.db
    .selectFrom('account_events')
    .innerJoin('domain_events', 'domain_events.id', 'account_events.event_id')
    .select(['domain_events.kind', 'domain_events.data'])
    .where('account_events.account_id', '=', acc.accountId)
    .orderBy('account_events.id')
    .execute();
  assert.deepEqual(
    events.map((e) => [e.kind, JSON.parse(e.data).status]),
    [
      ['resultado_processo_async', 'SUCESSO'],
      ['resultado_processo_async', 'ERRO'],
    ],
  );
  assert.equal(JSON.parse(events[0].data).processo.nup, formatNup(encontrado));
  assert.equal(JSON.parse(events[1].data).erro.code, 'ADMINISTRATIVE_PROCESS_NOT_FOUND');
});

test(
  'the page reader: another rendering of the same page (th labels, other column ' + 'order, entities) reads the same; a page about another NUP is unreadable',
  () => {
    const html =
      `<html><body><table>
    <tr><th>NUP</th><td>${formatNup(encontrado)}</td></tr><tr><th>Assunto</th><td>Licita&ccedil;&atilde;o &amp; contratos</td></tr>
    <tr><th>Interessados</th><td><ul><li>FULANO FICT&Iacute;CIO</li><li>EMPRESA FICTÍCIA LTDA</li></ul></td></tr></table>
    <table><tr><th>Unidade de Destino</th><th>Data/Hora</th><th>Ação</th><th>Unidade de Origem</th></tr>
    <tr><td>B</td><td>02/03/2024 ` +
      `10:15</td><td>Envio</td><td>A</td></tr><tr><td>C</td><td>01/03/2024</td><td>Autuação</td><td>A</td></tr></table></body></html>`;
    const page = readDetailPage(html, encontrado);
    assert.equal(page.kind, 'found');
    if (page.kind !== 'found') return;
    assert.equal(page.process.assunto, 'Licitação & contratos');
    assert.deepEqual(page.process.interessados, ['FULANO FICTÍCIO', 'EMPRESA FICTÍCIA LTDA']);
    assert.deepEqual(
      page.process.tramitacoes.map((t) => [t.dataHora, t.operacao, t.unidadeOrigem, t.unidadeDestino]),
      [
        ['2024-03-01T03:00:00.000Z', 'Autuação', 'A', 'C'],
        ['2024-03-02T13:15:00.000Z', 'Envio', 'A', 'B'],
      ],
    );
    assert.equal(readDetailPage(html, naoEncontrado).kind, 'unreadable');
    assert.equal(readDetailPage('<html><body><p>Erro interno</p></body></html>', encontrado).kind, 'unreadable', 'an error page is never "not found"');
    assert.equal(readDetailPage(html.slice(0, html.length - 30), encontrado).kind, 'unreadable', 'a page cut short loses tramitações: never read as complete');
  },
);
