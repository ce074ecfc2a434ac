/**
 * Endpoint health through HTTP (issue 55 item 7), with loopback receivers and the harness clock moved
 * by hand: an endpoint failing every delivery for TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS is disabled, the
 * account hears of it at its other endpoint, deliveries meanwhile are kept (RETIDA, never attempted)
 * and resent when the account re-enables it and asks; a success in between starts the period again;
 * without `reenviar` what was kept ends DESCARTADA.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../platform/clock.ts';
import { createHarness, json, type TestAccount } from '../../../test/harness.ts';
import { receiver } from '../../../test/webhook-receiver.ts';

const HOUR = 3_600_000;
const clock = new ManualClock('2026-03-02T12:00:00.000Z');
const h = await createHarness({
  clock,
  env: { TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true', TRAMITA_WEBHOOK_MAX_ATTEMPTS: '3', TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS: '120' },
});
test.after(() => h.close());

let down = true;
const failing = await receiver(() => (down ? 503 : 200));
const other = await receiver();
test.after(async () => {
  await failing.close();
  await other.close();
});

const call = (acc: TestAccount, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  h.inject({ method, url, headers: acc.headers, ...(payload ? { payload } : {}) });

/** One event for the account URL, and one for `monitorUrl` (a monitor's webhook_url) when given; then the due jobs run. */
async function emit(acc: TestAccount, marker: string, monitorUrl?: string): Promise<void> {
  await h.services.db.transaction().execute((trx) =>
    h.services.events.record(trx, {
      kind: 'atualizacao_processo_concluida',
      numeroCnj: null,
      tribunal: null,
      accountId: acc.accountId,
      audience: [
        { accountId: acc.accountId },
        ...(monitorUrl ? [{ accountId: acc.accountId, monitorType: 'processo', monitorId: `mon_${marker}`, webhookUrl: monitorUrl }] : []),
      ],
      data: { numeroCnj: null, tribunal: null, atualizacaoId: marker },
    }),
  );
  await h.runJobs();
}

async function endpoints(acc: TestAccount) {
  const res = await call(acc, 'GET', '/v1/conta/webhook/destinos');
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data.destinos as any[];
}

async function deliveriesOf(acc: TestAccount, status?: string) {
  const res = await call(acc, 'GET', `/v1/conta/webhook/entregas?limit=100${status ? `&status=${status}` : ''}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data.items as any[];
}

const markers = (received: typeof failing.received) => received.map((d) => d.body.data?.atualizacaoId ?? d.body.event);

test('an endpoint failing every delivery for the period is disabled, told to the other endpoint, its deliveries kept and resent on re-enabling', async () => {
  const acc = await h.createAccount();
  assert.equal((await call(acc, 'PUT', '/v1/conta/webhook', { url: failing.url })).statusCode, 200);
  const start = clock.now().getTime();

  await emit(acc, 'e1', other.url);
  let [account] = await endpoints(acc);
  assert.equal(account.url, failing.url);
  assert.equal(account.destino, 'conta');
  assert.equal(account.situacao, 'FALHANDO');
  assert.equal(account.desativarEm, new Date(start + 120 * HOUR).toISOString());
  assert.equal((await endpoints(acc)).length, 1, 'the healthy monitor endpoint is not listed');

  // Just inside the period: still failing, still attempted (e1's retries and e2 all fail).
  clock.advance(119 * HOUR);
  await emit(acc, 'e2', other.url);
  assert.equal((await endpoints(acc))[0].situacao, 'FALHANDO');

  // Past the period, the next failure disables it (the attempts due now, e1's last, e2's second and e3's first, all fail).
  clock.advance(2 * HOUR);
  await emit(acc, 'e3');
  [account] = await endpoints(acc);
  assert.equal(account.situacao, 'DESATIVADO');
  assert.equal(account.desativadoEm, clock.now().toISOString());
  assert.equal(account.desativarEm, null);

  // The account hears of it at its other endpoint, and in its feed.
  const notice = other.received.find((d) => d.body.event === 'webhook_desativado');
  assert.ok(notice, `the other endpoint got: ${markers(other.received)}`);
  assert.equal(notice.body.data.url, failing.url);
  assert.equal(notice.body.data.falhandoDesde, new Date(start).toISOString());
  assert.ok(!failing.received.some((d) => d.body.event === 'webhook_desativado'), 'not sent to the disabled endpoint');
  // In its pull feed (read here from its rows: on PostgreSQL the feed holds back the last instants, and this clock stands still).
  const feed = await h.services.db.selectFrom('account_events').select('kind').where('account_id', '=', acc.accountId).execute();
  assert.ok(
    feed.some((e) => e.kind === 'webhook_desativado'),
    'in the pull feed',
  );

  // Meanwhile: nothing is attempted, every delivery is kept (e2's and e3's retries, and a new e4).
  const attempted = failing.received.length;
  await emit(acc, 'e4');
  clock.advance(10 * 60_000);
  await h.runJobs();
  assert.equal(failing.received.length, attempted, 'a disabled endpoint gets no attempt');
  const held = await deliveriesOf(acc, 'RETIDA');
  assert.equal(held.length, 3);
  assert.equal((await endpoints(acc))[0].entregasRetidas, 3);

  // Another account cannot re-enable it; re-enabling with `reenviar` sends what was kept.
  const stranger = await h.createAccount();
  const refused = await call(stranger, 'POST', '/v1/conta/webhook/destinos/reativar', { url: failing.url, reenviar: true });
  assert.deepEqual(json(refused).data, { url: failing.url, reativado: false, reenviadas: 0, descartadas: 0 });
  assert.equal((await endpoints(acc))[0].situacao, 'DESATIVADO', "another account's call changes nothing");
  down = false;
  const res = await call(acc, 'POST', '/v1/conta/webhook/destinos/reativar', { url: failing.url, reenviar: true });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json(res).data, { url: failing.url, reativado: true, reenviadas: 3, descartadas: 0 });
  await h.runJobs();
  assert.deepEqual(markers(failing.received.slice(attempted)).sort(), ['e2', 'e3', 'e4']);
  const resent = (await deliveriesOf(acc)).filter((d) => held.some((k) => k.id === d.id));
  assert.deepEqual(
    resent.map((d) => d.status),
    ['ENTREGUE', 'ENTREGUE', 'ENTREGUE'],
  );
  assert.deepEqual(await endpoints(acc), [], 'healthy again');

  const again = await call(acc, 'POST', '/v1/conta/webhook/destinos/reativar', { url: failing.url });
  assert.equal(json(again).data.reativado, false, 'not disabled any more: nothing to do');
});

test('a success inside the period starts it again; re-enabling without reenviar discards what was kept', async () => {
  down = true;
  const acc = await h.createAccount();
  assert.equal((await call(acc, 'PUT', '/v1/conta/webhook', { url: failing.url })).statusCode, 200);
  await emit(acc, 'f1');
  clock.advance(100 * HOUR);
  down = false;
  await emit(acc, 'ok');
  assert.deepEqual(await endpoints(acc), [], 'a success ends the failing period');
  down = true;
  clock.advance(30 * HOUR);
  await emit(acc, 'f2');
  assert.equal((await endpoints(acc))[0].situacao, 'FALHANDO', '130 h after the first failure, but 30 h after the last success');

  clock.advance(121 * HOUR);
  await emit(acc, 'f3');
  assert.equal((await endpoints(acc))[0].situacao, 'DESATIVADO');
  await emit(acc, 'f4');
  const kept = await deliveriesOf(acc, 'RETIDA');
  // f4 (the newest), and the notice itself: with no other endpoint, it waits at the disabled one.
  assert.equal(kept[0].evento, 'atualizacao_processo_concluida');
  assert.ok(kept.some((d) => d.evento === 'webhook_desativado'));

  const res = await call(acc, 'POST', '/v1/conta/webhook/destinos/reativar', { url: failing.url });
  assert.deepEqual(json(res).data, { url: failing.url, reativado: true, reenviadas: 0, descartadas: kept.length });
  const after = await deliveriesOf(acc);
  for (const k of kept) {
    const d = after.find((x) => x.id === k.id);
    assert.equal(d.status, 'DESCARTADA');
    assert.match(d.ultimoErro, /not resent/);
  }
  // Discarded, not lost: it can still be resent on its own.
  down = false;
  const resend = await call(acc, 'POST', `/v1/conta/webhook/entregas/${kept[0].id}/reenviar`);
  assert.equal(resend.statusCode, 201, resend.body);
  const count = failing.received.length;
  await h.runJobs();
  assert.deepEqual(markers(failing.received.slice(count)), ['f4']);
});
