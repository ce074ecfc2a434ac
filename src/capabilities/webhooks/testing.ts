/**
 * Webhook fixtures for the shared route suite (test/route-suite.test.ts) and the event feed's: the
 * owner's webhook pointed at a receiver on loopback (the suite's harness allows private targets), and
 * a delivery made through the real event engine and delivery job.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import type { Harness, TestAccount } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';

let receiver: Promise<{ server: http.Server; url: string }> | undefined;

/** A loopback receiver that answers 204 to everything, started on first use. */
function receiverUrl(): Promise<string> {
  receiver ??= new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` }));
  });
  return receiver.then((r) => r.url);
}

export async function closeReceiver(): Promise<void> {
  const r = await receiver;
  receiver = undefined;
  if (r)
    await new Promise<void>((done) => {
      r.server.closeAllConnections();
      r.server.close(() => done());
    });
}

export async function withWebhook(h: Harness, owner: TestAccount): Promise<void> {
  const res = await h.inject({ method: 'PUT', url: '/v1/conta/webhook', headers: owner.headers, payload: { url: await receiverUrl() } });
  assert.equal(res.statusCode, 200, res.body);
}

/** A delivery of the owner's, made: an event recorded for the account and the delivery job run. */
export async function delivered(h: Harness, owner: TestAccount): Promise<string> {
  await withWebhook(h, owner);
  await h.services.db.transaction().execute((trx) =>
    h.services.events.record(trx, {
      kind: 'atualizacao_processo_concluida',
      numeroCnj: null,
      tribunal: null,
      accountId: owner.accountId,
      data: { numeroCnj: null, tribunal: null },
    }),
  );
  await h.runJobs();
  const row = await h.services.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('account_id', '=', owner.accountId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A disabled endpoint of the owner's (as endpoint-health.ts leaves one), its URL. */
export async function disabledEndpoint(h: Harness, owner: TestAccount): Promise<string> {
  const url = `https://receptor.exemplo.com.br/${owner.accountId}`;
  const at = h.services.clock.now().toISOString();
  await h.services.db
    .insertInto('webhook_endpoints')
    .values({ account_id: owner.accountId, url, failing_since: at, last_failure_at: at, last_error: 'receiver answered 503', disabled_at: at })
    .onConflict((oc) => oc.columns(['account_id', 'url']).doUpdateSet({ disabled_at: at }))
    .execute();
  return url;
}

export const routeFixtures: RouteFixtures = {
  owned: {
    '/v1/conta/webhook/entregas/:id': async (h, owner) => ({ id: await delivered(h, owner) }),
    '/v1/conta/webhook/entregas/:id/reenviar': async (h, owner) => ({ id: await delivered(h, owner) }),
  },
  setups: {
    '/v1/conta/webhook/teste': async (h, owner) => {
      await withWebhook(h, owner);
      return {};
    },
    '/v1/conta/webhook/destinos/reativar': async (h, owner) => ({ url: await disabledEndpoint(h, owner) }),
  },
  bodies: {
    '/v1/conta/webhook/destinos/reativar': (_h, params) => ({ url: params.url, reenviar: true }),
  },
};
