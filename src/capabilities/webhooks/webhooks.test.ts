/**
 * The account webhook through HTTP, with a real receiver on 127.0.0.1: configuration and secret,
 * the exact request of spec §6 (headers, HMAC, Standard Webhooks verified with the official library),
 * formats, enabled kinds, legacy names, the inactive switch, the whole retry ladder on an injected
 * clock, a worker dying mid-ladder, resend, the history, the pull feed, and secrets kept out of logs
 * and sealed at rest.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../../platform/clock.ts';
import type { NewDomainEvent } from '../../platform/events/log.ts';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { buildCapabilities, jobHandlers } from '../index.ts';
import { Worker } from '../../platform/jobs/worker.ts';
import { createServices } from '../../platform/services.ts';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback that answers each request with the next status of `statuses` (then 200). */
async function receiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok from receiver');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    statuses,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const clock = new ManualClock('2026-03-02T12:00:00.000Z');
const h = await createHarness({ clock, captureLogs: true, env: { TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true', TRAMITA_WEBHOOK_MAX_ATTEMPTS: '4' } });
const rx = await receiver();
test.after(async () => {
  await rx.close();
  await h.close();
});

function call(acc: TestAccount, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) {
  return h.inject({ method, url, headers: acc.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

async function configured(body: Record<string, unknown> = {}, url = rx.url) {
  const acc = await h.createAccount({ credits: 1000 });
  const first = json(await call(acc, 'GET', '/v1/conta/webhook'));
  const res = await call(acc, 'PUT', '/v1/conta/webhook', { url, ...body });
  assert.equal(res.statusCode, 200, res.body);
  return { acc, secret: first.data.segredo as string };
}

/** An event for the account, recorded as the stores do (inside a transaction). */
async function emit(accountId: string, e: Partial<NewDomainEvent<'atualizacao_processo_concluida'>> = {}): Promise<string> {
  return h.services.db.transaction().execute((trx) =>
    h.services.events.record(trx, {
      kind: 'atualizacao_processo_concluida',
      numeroCnj: '00012345620248260100',
      tribunal: 'TJSP',
      accountId,
      data: { numeroCnj: '00012345620248260100', tribunal: 'TJSP', novasMovimentacoes: 2 },
      raw: { _source: { numeroProcesso: '00012345620248260100' } },
      ...e,
    }),
  );
}

/** Lets the feed's settling window pass (2 s on PostgreSQL, 0 on SQLite). */
function settle(): void {
  clock.advance(2_000);
}

async function deliveriesOf(acc: TestAccount, query = '') {
  return json(await call(acc, 'GET', `/v1/conta/webhook/entregas${query}`)).data.items as any[];
}

test('the first read creates the configuration and shows the secret once; later reads show only its prefix', async () => {
  const acc = await h.createAccount();
  const first = json(await call(acc, 'GET', '/v1/conta/webhook'));
  assert.match(first.data.segredo, /^whsec_[A-Za-z0-9+/=]{32}$/);
  assert.equal(first.data.ativo, true);
  assert.equal(first.data.formato, 'NORMALIZED');
  assert.equal(first.data.eventos, null);
  const second = json(await call(acc, 'GET', '/v1/conta/webhook'));
  assert.equal(second.data.segredo, null);
  assert.equal(second.data.segredoPrefixo, first.data.segredo.slice(0, 12));
});

test('bad configuration is a precise 400: an unknown event kind, a malformed token, an unknown field', async () => {
  const acc = await h.createAccount();
  const kind = await call(acc, 'PUT', '/v1/conta/webhook', { eventos: ['nova_movimentacao', 'nao_existe'] });
  assert.equal(kind.statusCode, 400);
  assert.equal(json(kind).error.details.field, 'eventos');
  assert.equal((await call(acc, 'PUT', '/v1/conta/webhook', { token: 'has space' })).statusCode, 400);
  assert.equal((await call(acc, 'PUT', '/v1/conta/webhook', { formato: 'XML' })).statusCode, 400);
  assert.equal((await call(acc, 'PUT', '/v1/conta/webhook', { nope: 1 })).statusCode, 400);
});

test('a delivery is exactly the spec request: headers, bearer, HMAC over the raw body, Standard Webhooks signature', async () => {
  const { acc, secret } = await configured({ token: 'tok-123' });
  const eventId = await emit(acc.accountId);
  await h.runJobs();
  const [r] = rx.received.filter((x) => JSON.parse(x.body).id === eventId);
  assert.ok(r, 'delivered');
  assert.equal(r.headers['content-type'], 'application/json');
  assert.equal(r.headers['user-agent'], 'Service-Webhook/1.0');
  assert.equal(r.headers['x-service-event'], 'atualizacao_processo_concluida');
  assert.match(String(r.headers['x-service-delivery-id']), /^dlv_/);
  assert.equal(r.headers['x-service-timestamp'], String(Math.floor(clock.now().getTime() / 1000)));
  assert.equal(r.headers.authorization, 'Bearer tok-123');
  assert.equal(r.headers['x-service-signature'], `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(r.body).digest('hex')}`);
  assert.equal(r.headers['webhook-id'], eventId);
  // The official library checks the signature and the timestamp against its own clock: verify at the delivery's time.
  const wh = new Webhook(secret);
  const realNow = Date.now;
  Date.now = () => clock.now().getTime();
  try {
    assert.deepEqual(wh.verify(r.body, r.headers as Record<string, string>), JSON.parse(r.body));
  } finally {
    Date.now = realNow;
  }
  const body = JSON.parse(r.body);
  assert.deepEqual(Object.keys(body), ['id', 'event', 'source', 'created_at', 'data']);
  assert.equal(body.data.numeroCnj, '0001234-56.2024.8.26.0100', 'masked, as in REST');
  assert.equal(body.data.numeroCnjDigitos, '00012345620248260100');
  assert.equal(body.data.processo.numero_unico, '0001234-56.2024.8.26.0100');
  assert.equal(body.data.tribunal, 'TJSP');
  assert.equal(body.created_at, clock.now().toISOString());

  const [d] = await deliveriesOf(acc);
  assert.equal(d.status, 'ENTREGUE');
  assert.equal(d.historico.length, 1);
  assert.equal(d.historico[0].statusHttp, 200);
  assert.equal(d.historico[0].respostaTrecho, 'ok from receiver');
});

test('without a token there is no Authorization header', async () => {
  const { acc } = await configured();
  const eventId = await emit(acc.accountId);
  await h.runJobs();
  const r = rx.received.find((x) => JSON.parse(x.body).id === eventId)!;
  assert.equal(r.headers.authorization, undefined);
  assert.ok(r.headers['x-service-signature']);
});

test('formats: RAW sends the upstream record, BOTH adds raw to the normalized payload', async () => {
  const raw = await configured({ formato: 'RAW' });
  const both = await configured({ formato: 'BOTH' });
  const rawId = await emit(raw.acc.accountId);
  const bothId = await emit(both.acc.accountId);
  await h.runJobs();
  const rawBody = rx.received.find((x) => x.headers['webhook-id'] === rawId)!.body;
  assert.deepEqual(JSON.parse(rawBody), { _source: { numeroProcesso: '00012345620248260100' } });
  const bothBody = JSON.parse(rx.received.find((x) => x.headers['webhook-id'] === bothId)!.body);
  assert.equal(bothBody.id, bothId);
  assert.deepEqual(bothBody.raw, { _source: { numeroProcesso: '00012345620248260100' } });
});

test('only enabled kinds are sent; legacy names come as a second delivery of the same event', async () => {
  const only = await configured({ eventos: ['nova_movimentacao'] });
  const skipped = await emit(only.acc.accountId);
  const legacy = await configured({ nomes_legados: true });
  const twin = await emit(legacy.acc.accountId);
  await h.runJobs();
  assert.equal(rx.received.filter((x) => x.headers['webhook-id'] === skipped).length, 0);
  const both = rx.received.filter((x) => x.headers['webhook-id'] === twin);
  assert.deepEqual(both.map((x) => x.headers['x-service-event']).sort(), ['atualizacao_concluida', 'atualizacao_processo_concluida']);
  assert.deepEqual(both.map((x) => JSON.parse(x.body).event).sort(), ['atualizacao_concluida', 'atualizacao_processo_concluida']);
  assert.notEqual(both[0].headers['x-service-delivery-id'], both[1].headers['x-service-delivery-id']);
});

test('an inactive webhook sends nothing, and the event stays in the pull feed', async () => {
  const { acc } = await configured({ ativo: false });
  const eventId = await emit(acc.accountId);
  await h.runJobs();
  assert.equal(rx.received.filter((x) => x.headers['webhook-id'] === eventId).length, 0);
  assert.equal((await deliveriesOf(acc)).length, 0);
  settle();
  const feed = json(await call(acc, 'GET', '/v1/eventos'));
  assert.deepEqual(
    feed.data.items.map((e: any) => e.id),
    [eventId],
  );
});

test('the retry ladder: min(120, 2^attempt) minutes exactly, the same event id every time, then FALHOU', async () => {
  const failing = await receiver([500, 503, 502, 500, 500]);
  try {
    const { acc } = await configured({}, failing.url);
    const eventId = await emit(acc.accountId);
    const start = clock.now().getTime();
    await h.runJobs();
    assert.equal(failing.received.length, 1);
    for (const [attempt, minutes] of [
      [2, 2],
      [3, 4],
      [4, 8],
    ]) {
      clock.advance(minutes * 60_000 - 1);
      await h.runJobs();
      assert.equal(failing.received.length, attempt - 1, `attempt ${attempt} not before ${minutes} min`);
      clock.advance(1);
      await h.runJobs();
      assert.equal(failing.received.length, attempt, `attempt ${attempt} at exactly ${minutes} min`);
    }
    assert.ok(failing.received.every((r) => r.headers['webhook-id'] === eventId && JSON.parse(r.body).id === eventId));
    assert.equal(new Set(failing.received.map((r) => r.headers['x-service-delivery-id'])).size, 1, 'one delivery, retried');
    const [d] = await deliveriesOf(acc);
    assert.equal(d.status, 'FALHOU');
    assert.equal(d.tentativas, 4);
    assert.deepEqual(
      d.historico.map((a: any) => a.statusHttp),
      [500, 503, 502, 500],
    );
    assert.deepEqual(
      d.historico.map((a: any) => a.proximaTentativaEm && Date.parse(a.proximaTentativaEm) - start),
      [2 * 60_000, (2 + 4) * 60_000, (2 + 4 + 8) * 60_000, null],
    );
    clock.advance(3 * 3_600_000);
    await h.runJobs();
    assert.equal(failing.received.length, 4, 'nothing after the last attempt');
    assert.equal((await deliveriesOf(acc, '?status=FALHOU')).length, 1);
    assert.equal((await deliveriesOf(acc, '?status=ENTREGUE')).length, 0);
  } finally {
    await failing.close();
  }
});

test('a worker that dies holding a delivery: another takes it after the lease, and it is sent once more at most', async () => {
  const { acc } = await configured();
  const eventId = await emit(acc.accountId);
  const claimed = await h.services.jobs.claim('dead-worker', 100, h.config.jobLeaseMs, ['webhooks.entregar']);
  assert.ok(claimed.length >= 1);
  await h.runJobs();
  assert.equal(rx.received.filter((x) => x.headers['webhook-id'] === eventId).length, 0, 'leased: not taken while the lease runs');
  clock.advance(h.config.jobLeaseMs + 1);
  await h.runJobs();
  assert.equal(rx.received.filter((x) => x.headers['webhook-id'] === eventId).length, 1, 'taken again after the lease, delivered once');
  const [d] = await deliveriesOf(acc);
  assert.equal(d.status, 'ENTREGUE');
});

test('resend: a new delivery id, the same event id and bytes; history and filters', async () => {
  const { acc } = await configured();
  const eventId = await emit(acc.accountId);
  await h.runJobs();
  const [original] = await deliveriesOf(acc);
  const res = await call(acc, 'POST', `/v1/conta/webhook/entregas/${original.id}/reenviar`, {});
  assert.equal(res.statusCode, 201, res.body);
  const resent = json(res).data;
  assert.equal(resent.reenvioDe, original.id);
  assert.equal(resent.eventoId, eventId);
  await h.runJobs();
  const bodies = rx.received.filter((x) => x.headers['webhook-id'] === eventId);
  assert.equal(bodies.length, 2);
  assert.equal(bodies[0].body, bodies[1].body);
  assert.notEqual(bodies[0].headers['x-service-delivery-id'], bodies[1].headers['x-service-delivery-id']);
  const one = json(await call(acc, 'GET', `/v1/conta/webhook/entregas/${resent.id}`)).data;
  assert.equal(one.status, 'ENTREGUE');
  assert.equal((await deliveriesOf(acc, '?evento=atualizacao_processo_concluida&limit=1')).length, 1);
  const stranger = await h.createAccount();
  assert.equal((await call(stranger, 'GET', `/v1/conta/webhook/entregas/${resent.id}`)).statusCode, 404);
  assert.equal((await call(stranger, 'POST', `/v1/conta/webhook/entregas/${resent.id}/reenviar`, {})).statusCode, 404);
});

test('regenerating the secret: the new one signs the next delivery, the old one no longer verifies', async () => {
  const { acc, secret: old } = await configured();
  const res = json(await call(acc, 'POST', '/v1/conta/webhook/segredo', {}));
  const fresh = res.data.segredo as string;
  assert.notEqual(fresh, old);
  const eventId = await emit(acc.accountId);
  await h.runJobs();
  const r = rx.received.find((x) => x.headers['webhook-id'] === eventId)!;
  const hmac = (k: string) => `sha256=${createHmac('sha256', k).update(r.body).digest('hex')}`;
  assert.equal(r.headers['x-service-signature'], hmac(fresh));
  assert.notEqual(r.headers['x-service-signature'], hmac(old));
});

test('the test delivery: 422 without a URL, otherwise sent during the request, signed, recorded, free', async () => {
  const bare = await h.createAccount();
  const none = await call(bare, 'POST', '/v1/conta/webhook/teste', {});
  assert.equal(none.statusCode, 422);
  assert.equal(json(none).error.code, 'WEBHOOK_NOT_CONFIGURED');
  const { acc } = await configured({ ativo: false });
  const res = await call(acc, 'POST', '/v1/conta/webhook/teste', {});
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.equal(body.data.entregue, true);
  assert.equal(body.data.entrega.evento, 'teste');
  assert.equal(body.meta.creditsCharged ?? 0, 0);
  const r = rx.received.find((x) => x.headers['x-service-delivery-id'] === body.data.entrega.id)!;
  assert.equal(r.headers['x-service-event'], 'teste');
});

test('the pull feed: in order, from the acknowledged cursor, acknowledgement only moves forward', async () => {
  const { acc } = await configured({ ativo: false });
  const ids = [await emit(acc.accountId), await emit(acc.accountId), await emit(acc.accountId)];
  settle();
  const page1 = json(await call(acc, 'GET', '/v1/eventos?limit=2'));
  assert.deepEqual(
    page1.data.items.map((e: any) => e.id),
    ids.slice(0, 2),
  );
  assert.equal(page1.data.pagination.hasNextPage, true);
  assert.equal(new URL(page1.data.links.next.href).searchParams.get('after'), page1.meta.nextCursor);
  assert.equal(page1.meta.hasMore, true);
  const page2 = json(await call(acc, 'GET', `/v1/eventos?after=${page1.meta.nextCursor}`));
  assert.deepEqual(
    page2.data.items.map((e: any) => e.id),
    ids.slice(2),
  );
  assert.equal(json(await call(acc, 'POST', '/v1/eventos/confirmar', { cursor: page1.meta.nextCursor })).data.confirmadoAte, page1.meta.nextCursor);
  assert.deepEqual(
    json(await call(acc, 'GET', '/v1/eventos')).data.items.map((e: any) => e.id),
    ids.slice(2),
  );
  // an older cursor does not move the acknowledgement back
  await call(acc, 'POST', '/v1/eventos/confirmar', { cursor: page1.data.items[0].cursor });
  assert.deepEqual(
    json(await call(acc, 'GET', '/v1/eventos')).data.items.map((e: any) => e.id),
    ids.slice(2),
  );
  const stranger = await h.createAccount();
  assert.equal(json(await call(stranger, 'GET', '/v1/eventos')).data.items.length, 0);
  assert.equal((await call(stranger, 'POST', '/v1/eventos/confirmar', { cursor: page1.meta.nextCursor })).statusCode, 400);
  assert.equal((await call(acc, 'GET', '/v1/eventos?after=nope')).statusCode, 400);
});

test('a refresh the account asked for reaches its webhook as atualizacao_processo_concluida', async () => {
  const { acc } = await configured();
  const c = h.sources.sandbox!.dataset.cases.find((x) => x.filedAt <= clock.now().getTime())!;
  assert.equal((await call(acc, 'POST', `/v1/processos/cnj/${c.numero}/solicitar-atualizacao`, {})).statusCode, 200);
  await h.runJobs();
  const r = rx.received.find((x) => JSON.parse(x.body).event === 'atualizacao_processo_concluida' && JSON.parse(x.body).data.numeroCnjDigitos === c.numero);
  assert.ok(r, 'delivered');
  assert.equal(JSON.parse(r.body).data.tribunal, c.court.sigla);
});

test('secrets and tokens are sealed at rest and never logged', async () => {
  const { acc, secret } = await configured({ token: 'super-secret-token-xyz' });
  await emit(acc.accountId);
  await h.runJobs();
  const row = await h.services.db.selectFrom('webhook_configs').selectAll().where('account_id', '=', acc.accountId).executeTakeFirstOrThrow();
  assert.ok(!JSON.stringify(row).includes(secret) && !JSON.stringify(row).includes('super-secret-token-xyz'));
  const logs = h.logs.join('\n');
  assert.ok(!logs.includes(secret) && !logs.includes('super-secret-token-xyz'));
});

test('without TRAMITA_WEBHOOK_ALLOW_PRIVATE, http and private targets are 400 INVALID_WEBHOOK_URL', async (t) => {
  const strict = await createHarness({ env: { TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'false' } });
  t.after(() => strict.close());
  const acc = await strict.createAccount();
  for (const url of [
    'http://example.com/hook',
    'https://127.1/hook',
    'https://2130706433/hook',
    'https://0x7f.1/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://169.254.169.254/latest',
    'https://localhost/hook',
    'ftp://example.com/x',
  ]) {
    const res = await strict.inject({ method: 'PUT', url: '/v1/conta/webhook', headers: acc.headers, payload: { url } });
    assert.equal(res.statusCode, 400, url);
    assert.equal(json(res).error.code, 'INVALID_WEBHOOK_URL', url);
  }
});

test('null clears: url, token and eventos go back to none', async () => {
  const { acc } = await configured({ token: 'tok', eventos: ['teste'] });
  const res = await call(acc, 'PUT', '/v1/conta/webhook', { url: null, token: null, eventos: null });
  assert.equal(res.statusCode, 200, res.body);
  const data = json(res).data;
  assert.equal(data.url, null);
  assert.equal(data.tokenConfigurado, false);
  assert.equal(data.eventos, null);
});

test('on PostgreSQL the feed holds an event back for its settling window; SQLite lists it at once', async () => {
  const { acc } = await configured({ ativo: false });
  const id = await emit(acc.accountId);
  const listed = async () => json(await call(acc, 'GET', '/v1/eventos')).data.items.map((e: any) => e.id);
  if (h.services.database.engine === 'postgres') {
    assert.deepEqual(await listed(), []);
    clock.advance(1_999);
    assert.deepEqual(await listed(), []);
    clock.advance(1);
  }
  assert.deepEqual(await listed(), [id]);
});

test('a restart in the middle of the ladder: a new process on the same database goes on from the next attempt, nothing lost or repeated', async () => {
  const failing = await receiver([500, 500]);
  try {
    const { acc } = await configured({}, failing.url);
    const eventId = await emit(acc.accountId);
    await h.runJobs();
    assert.equal(failing.received.length, 1);
    // "Restart": new services, stores, sender and worker over the same database, as `tramita serve` builds them.
    const restarted = createServices(h.config, h.services.database, h.services.log, { clock, sources: h.sources });
    const worker = new Worker({
      queue: restarted.jobs,
      handlers: jobHandlers(buildCapabilities(restarted)),
      clock,
      log: restarted.log,
      concurrency: 8,
      leaseMs: h.config.jobLeaseMs,
      pollMs: 10,
    });
    try {
      assert.equal(await worker.runDue(), 0, 'the second attempt is not due yet');
      clock.advance(2 * 60_000);
      await worker.runDue();
      assert.equal(failing.received.length, 2);
      clock.advance(4 * 60_000);
      await worker.runDue();
      assert.equal(failing.received.length, 3);
    } finally {
      restarted.webhooks.sender.close();
    }
    assert.ok(failing.received.every((r) => r.headers['webhook-id'] === eventId));
    const [d] = await deliveriesOf(acc);
    assert.equal(d.status, 'ENTREGUE');
    assert.deepEqual(
      d.historico.map((a: any) => [a.tentativa, a.statusHttp]),
      [
        [1, 500],
        [2, 500],
        [3, 200],
      ],
    );
  } finally {
    await failing.close();
  }
});

/** A counter's value in /metrics (0 when the series does not exist yet). */
async function metricValue(series: string): Promise<number> {
  const text = (await h.inject({ method: 'GET', url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test('a delivery to a closed port: one warn line with the ids to find it, and the failure counter moves', async () => {
  const closed = await receiver();
  await closed.close(); // the port is free now: nothing listens
  const { acc } = await configured({ token: 'token-do-receptor-abc' }, closed.url);
  const series = 'tramita_webhook_deliveries_total{outcome="failed",attempt="1"}';
  const before = await metricValue(series);
  const eventId = await emit(acc.accountId);
  const from = h.logs.length;
  await h.runJobs();
  assert.equal(await metricValue(series), before + 1);
  const lines = h.logs
    .slice(from)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'webhook delivery attempt failed; retried later');
  assert.equal(lines.length, 1, h.logs.slice(from).join(''));
  const [d] = await deliveriesOf(acc);
  assert.equal(lines[0]!.level, 40, 'warn');
  assert.equal(lines[0]!.delivery, d.id);
  assert.equal(lines[0]!.account, acc.accountId);
  assert.equal(lines[0]!.event, eventId);
  assert.equal(lines[0]!.attempt, 1);
  assert.match(String(lines[0]!.error), /ECONNREFUSED/);
  assert.ok(lines[0]!.nextAttemptAt);
  assert.ok(!h.logs.slice(from).join('').includes('token-do-receptor-abc'), 'the bearer token is not in the line');
});
