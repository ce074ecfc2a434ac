/**
 * Tramita driven as integrator code written against the commercial service drives it
 * (reference/integrator-conventions.md): a client that sends `x-api-key` and `Content-Type:
 * application/json` on every call, aborts after 30 s, polls any 202 at `/v1/requests/{id}`, treats a
 * 2xx without `data` as an error, and reads the fields the conventions name, operation by operation;
 * and a webhook receiver that authenticates the raw body by the vendor-prefixed signature header
 * (TRAMITA_WEBHOOK_PRODUCT) and extracts the CNJ and the text where the conventions say. Over real
 * sockets on 127.0.0.1, against the sandbox.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../src/platform/clock.ts';
import { formatCnj } from '../src/platform/identifiers/cnj.ts';
import type { SandboxCase } from '../src/sandbox/data/model.ts';
import { createHarness } from './harness.ts';
import { testNow } from './test-date.ts';

const clock = new ManualClock(testNow());
const h = await createHarness({
  clock,
  env: {
    TRAMITA_WEBHOOK_PRODUCT: 'BuscaProcessos',
    TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
    TRAMITA_MONITOR_INTERVAL_MS: '1000',
    TRAMITA_SUMMARY_PROVIDER: 'extrativo',
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s,async=100000/60s,monitor=100000/60s,account=100000/60s,search=100000/60s,download=100000/60s',
  },
});
test.after(() => h.close());
await h.app.listen({ host: '127.0.0.1', port: 0 });
const BASE = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
const acc = await h.createAccount({ credits: 100_000 });
const sandbox = h.sources.sandbox!;
const now = () => clock.now().getTime();
const visible = (f: (c: SandboxCase) => boolean) => sandbox.dataset.cases.find((c) => c.filedAt <= now() && c.court.datajudAlias && f(c))!;

class ApiFailure extends Error {
  readonly status: number;
  constructor(status: number, body: unknown) {
    super(`HTTP ${status}: ${JSON.stringify(body).slice(0, 300)}`);
    this.status = status;
  }
}

/** The integrator's client (conventions §1, §3): its headers, its timeout, its 202 handling, its envelope check. */
async function call(method: string, path: string, body?: unknown): Promise<any> {
  const headers = { 'x-api-key': acc.headers['x-api-key'], 'content-type': 'application/json' };
  let res = await fetch(`${BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  while (res.status === 202) {
    const pending = ((await res.json()) as any).data;
    assert.equal(pending.status, 'PROCESSANDO');
    await new Promise((r) => setTimeout(r, Math.min(pending.pollAfterMs ?? 5_000, 50)));
    res = await fetch(`${BASE}/v1/requests/${pending.requestId}`, { headers, signal: AbortSignal.timeout(30_000) });
  }
  const json = (await res.json()) as any;
  if (!res.ok) throw new ApiFailure(res.status, json);
  if (!json || typeof json !== 'object' || !('data' in json)) throw new Error('unexpected envelope');
  return json;
}

async function status(method: string, path: string, body?: unknown): Promise<number> {
  return call(method, path, body).then(
    () => 200,
    (e) => (e instanceof ApiFailure ? e.status : Promise.reject(e)),
  );
}

test('balance: credits, currency and accountStatus, validated strictly (§4.1)', async () => {
  const { data } = await call('GET', '/v1/conta/saldo');
  assert.equal(typeof data.credits, 'number');
  assert.ok(typeof data.currency === 'string' && data.currency !== '');
  assert.equal(data.accountStatus, 'ACTIVE');
});

test('cover: the process object mapped as the integrator maps it (§4.2)', async () => {
  const c = visible((x) => x.valorCausaCentavos !== null && x.partes.some((p) => p.polo === 'ATIVO') && x.partes.some((p) => p.polo === 'PASSIVO'));
  const masked = encodeURIComponent(formatCnj(c.numero));
  await call('GET', `/v1/processos/cnj/${masked}`);
  await h.runJobs(); // the enrichment job brings parties and the value
  const { data } = await call('GET', `/v1/processos/cnj/${masked}`);
  assert.equal(data.numero_cnj ?? data.numeroCnj, formatCnj(c.numero));
  const sources = [...data.fontes].sort((a: any, b: any) => Number(!!b.capa) - Number(!!a.capa) || a.grau - b.grau);
  const primary = sources[0];
  assert.equal(primary.tribunal.sigla ?? primary.tribunal.nome ?? primary.sigla, c.court.sigla);
  assert.equal(primary.capa.classe, c.instances[0].classe.nome);
  assert.equal(typeof primary.capa.orgao_julgador, 'string');
  assert.equal(typeof primary.capa.assunto, 'string');
  const plaintiff = primary.envolvidos.find((e: any) => e.polo === 'ATIVO')?.nome ?? data.titulo_polo_ativo;
  assert.equal(plaintiff, c.partes.find((p) => p.polo === 'ATIVO')!.person.nome);
  assert.equal(Number(data.valor_causa?.valor ?? primary.capa.valor_causa?.valor) * 100, c.valorCausaCentavos);
  assert.match(primary.capa.data_distribuicao ?? data.data_inicio, /^\d{4}-\d{2}-\d{2}/);
  assert.match(data.data_ultima_movimentacao, /^\d{4}-\d{2}-\d{2}/);
  assert.equal(typeof data.fontes_tribunais_estao_arquivadas, 'boolean');
  assert.match(primary.capa.situacao, /ativo|arquiv/i);
});

test('movements: data.movimentacoes[] with data and conteudo, data.total and links.next (§4.3)', async () => {
  const c = visible((x) => x.instances[0].movements.filter((m) => m.at <= now()).length > 25);
  const first = await call('GET', `/v1/processos/cnj/${encodeURIComponent(formatCnj(c.numero))}/movimentacoes?limit=20`);
  assert.equal(first.data.movimentacoes.length, 20);
  for (const m of first.data.movimentacoes) assert.ok(m.data && typeof m.conteudo === 'string' && m.conteudo !== '');
  assert.equal(typeof first.data.total, 'number');
  const next = await call('GET', new URL(first.data.links.next.href).pathname + new URL(first.data.links.next.href).search);
  assert.ok(next.data.movimentacoes.length > 0);
  assert.notEqual(next.data.movimentacoes[0].id, first.data.movimentacoes[0].id);
});

test('refresh with {"documentos_publicos": false}, then documents with page=1&limit=50 (§4.9, §4.4)', async () => {
  const c = visible((x) => x.documentos.some((d) => d.juntadaAt <= now()));
  const masked = encodeURIComponent(formatCnj(c.numero));
  const asked = await call('POST', `/v1/processos/cnj/${masked}/solicitar-atualizacao`, { documentos_publicos: false });
  assert.equal(typeof asked.data.message, 'string');
  await h.runJobs();
  const docs = await call('GET', `/v1/processos/cnj/${masked}/documentos-publicos?page=1&limit=50`);
  assert.ok(docs.data.documentos.length > 0);
  assert.equal(docs.data.total, docs.data.documentos.length);
  const d = docs.data.documentos[0];
  assert.equal(typeof String(d.id), 'string');
  assert.match(d.data, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.ok(d.downloadUrl.includes(`/documentos/${encodeURIComponent(d.id)}/download`));
  assert.equal(docs.data.pagination.currentPage, 1);
});

test('CPF search with page=1: data.processos[] of process objects, documentType, meta.creditsCharged (§4.7)', async () => {
  const ex = sandbox.dataset.examples(now());
  const digits = ex.document!.replace(/\D/g, '');
  const res = await call('GET', `/v1/processos?cpf_cnpj=${digits}&page=1`);
  assert.ok(res.data.processos.length > 0);
  assert.ok(res.data.processos.every((p: any) => Array.isArray(p.fontes) && p.numero_cnj));
  assert.equal(res.data.documentType, digits.length === 11 ? 'cpf' : 'cnpj');
  assert.equal(typeof res.data.total, 'number');
  assert.equal(typeof res.meta.creditsCharged, 'number');
});

test('OAB search with oab_estado, oab_numero, oab_tipo, page and limit: data.processos (§4.8)', async () => {
  const c = visible((x) => x.partes.some((p) => p.advogados.some((l) => l.oab)));
  const lawyer = c.partes.flatMap((p) => p.advogados).find((l) => l.oab)!;
  await call('GET', `/v1/processos/cnj/${encodeURIComponent(formatCnj(c.numero))}`);
  await h.runJobs(); // the case's lawyers are stored by the enrichment job
  const res = await call('GET', `/v1/advogados/processos?oab_estado=${lawyer.oab!.uf}&oab_numero=${lawyer.oab!.numero}&oab_tipo=PRINCIPAL&page=1&limit=10`);
  assert.ok(res.data.processos.length > 0, 'the OAB of a stored case lists it');
  assert.deepEqual(res.data.advogado.oab, { estado: lawyer.oab!.uf, numero: lawyer.oab!.numero });
  for (const p of res.data.processos) {
    assert.match(p.numeroCnj, /^\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}$/);
    for (const field of ['poloAtivo', 'poloPassivo', 'anoInicio', 'classe', 'orgaoJulgador', 'classificacao', 'statusProcessual']) assert.ok(field in p, field);
  }
});

test('intimação monitors and intimações by OAB, the flat forms the integrator sends (§4.11, §4.12)', async () => {
  const oab = { estado: 'SP', numero: String(300_000 + Math.floor(Math.random() * 99_999)) };
  const q = `oab_estado=${oab.estado}&oab_numero=${oab.numero}`;
  assert.equal(await status('GET', `/v1/intimacoes/oab?${q}`), 404, 'never monitored');
  const created = await call('POST', '/v1/intimacoes/oab', { oab_estado: oab.estado, oab_numero: oab.numero });
  assert.equal(created.data.monitoramentos[0].reused, false);
  assert.deepEqual([created.data.monitoramentos[0].estado, created.data.monitoramentos[0].numero], [oab.estado, oab.numero]);
  assert.equal(created.data.billing.billableOabs, 1);
  assert.equal(typeof created.data.callback.enabled, 'boolean');
  assert.equal((await call('POST', '/v1/intimacoes/oab', { oab_estado: oab.estado, oab_numero: oab.numero })).data.monitoramentos[0].reused, true);
  const read = await call('GET', `/v1/intimacoes/oab?${q}`);
  assert.equal(read.data.items[0].status, 'ACTIVE');
  assert.equal(read.data.items[0].termo, `OAB/${oab.estado} ${oab.numero}`);
  assert.equal((await call('PUT', `/v1/intimacoes/oab?${q}`, { oab_estado: oab.estado, oab_numero: oab.numero, webhook_url: null })).data.webhookUrl, null);
  const list = await call(
    'GET',
    `/v1/intimacoes?oabs=${oab.estado}:${oab.numero},RJ:654321&page=1&desde=${new Date(now() - 30 * 86_400_000).toISOString().slice(0, 10)}`,
  );
  assert.ok(Array.isArray(list.data.intimacoes));
  assert.deepEqual(list.data.missingMonitorings, [{ estado: 'RJ', numero: '654321' }]);
  assert.deepEqual(list.data.oabs, [oab]);
  const removed = await call('DELETE', `/v1/intimacoes/oab?${q}`);
  assert.equal(removed.data.status, 'INACTIVE');
});

test('case monitors: POST {numero_cnj, frequencia: MENSAL, tribunal: null}, GET data.items, DELETE without a body; 404 = gone (§4.13)', async () => {
  const c = visible(() => true);
  const created = await call('POST', '/v1/monitoramentos/processos', { numero_cnj: formatCnj(c.numero), frequencia: 'MENSAL', tribunal: null });
  assert.ok(created.data.id);
  assert.equal(created.data.ativo, true);
  assert.equal(created.data.cobranca.recorrencia, 'MENSAL');
  const list = await call('GET', '/v1/monitoramentos/processos');
  assert.ok(list.data.items.some((m: any) => m.id === created.data.id));
  assert.equal(typeof list.data.pagination.hasNextPage, 'boolean');
  assert.equal(await status('DELETE', `/v1/monitoramentos/processos/${created.data.id}`), 200);
  assert.equal(await status('DELETE', `/v1/monitoramentos/processos/mon_que_nao_existe`), 404);
});

test('AI summary: conteudo and atualizadoEm, state success once written (§4.6)', async () => {
  const c = visible(() => true);
  const masked = encodeURIComponent(formatCnj(c.numero));
  const none = await call('GET', `/v1/processos/cnj/${masked}/resumo-ia`);
  assert.equal(none.data.conteudo, null);
  const asked = await call('POST', `/v1/processos/cnj/${masked}/resumo-ia/solicitar-atualizacao`);
  for (
    let i = 0;
    i < 50 && (await call('GET', `/v1/processos/cnj/${masked}/resumo-ia/status?request_id=${asked.data.providerRequestId}`)).data.status !== 'FINALIZADO';
    i++
  ) {
    await h.runJobs();
  }
  const read = await call('GET', `/v1/processos/cnj/${masked}/resumo-ia`);
  assert.equal(read.data.state, 'success');
  assert.ok(read.data.conteudo.length > 100);
  assert.ok(read.data.atualizadoEm);
});

test('webhooks: the receiver authenticates by x-buscaprocessos-signature and extracts the masked CNJ and the movement text (§9)', async (t) => {
  const received: { headers: http.IncomingHttpHeaders; raw: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('{"received":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  await call('PUT', '/v1/conta/webhook', { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
  // A new secret, shown once: a body-less POST, as a plain curl -X POST sends it.
  const secret: string = (await call('POST', '/v1/conta/webhook/segredo')).data.segredo;

  const nextAt = (c: SandboxCase) => Math.min(...c.instances.flatMap((i) => i.movements.filter((m) => m.at > now()).map((m) => m.at)));
  const c = visible((x) => nextAt(x) < now() + 5 * 86_400_000);
  await call('POST', '/v1/monitoramentos/processos', { numero_cnj: formatCnj(c.numero), frequencia: 'DIARIA' });
  clock.advance(1_000);
  await h.runJobs();
  clock.advance(nextAt(c) - now() + 25 * 3_600_000);
  await h.runJobs();

  // The receiver's rules (§9.1): authenticate the raw text first, then parse; the event name from the header.
  const valid = (raw: string, header: string | undefined) => {
    const given = String(header ?? '')
      .replace(/^sha256=/, '')
      .toLowerCase();
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(raw).digest('hex');
    return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  };
  const movement = received.find((r) => r.headers['x-buscaprocessos-event'] === 'nova_movimentacao');
  assert.ok(movement, `nova_movimentacao arrived (got ${received.map((r) => r.headers['x-buscaprocessos-event']).join(', ')})`);
  assert.ok(valid(movement.raw, movement.headers['x-buscaprocessos-signature'] as string), 'the HMAC verifies with the secret as text');
  assert.equal(movement.headers['user-agent'], 'BuscaProcessos-Webhook/1.0');
  const payload = JSON.parse(movement.raw);
  const data = payload.data ?? payload;
  assert.ok(payload.id ?? payload.uuid, 'a dedup id');
  assert.equal(data.processo?.numero_unico ?? data.numeroCnj ?? data.numero_cnj, formatCnj(c.numero), 'matches its stored masked CNJ');
  const text = data.event_data?.conteudo ?? data.conteudo ?? data.descricao;
  assert.ok(typeof text === 'string' && text !== '', 'a text to store, not "ignored"');
  assert.match(data.event_data.data, /^\d{2}\/\d{2}\/\d{4}$/);
});
