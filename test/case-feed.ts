/** Helpers of the tests of case news (issue 43): a case monitor of an account, and the account's feed of one case's events of one kind. */
import assert from 'node:assert/strict';
import { json, type Harness, type TestAccount } from './harness.ts';

/** A case monitor of the account (201); its id. */
export async function monitorCase(h: Harness, acc: TestAccount, numero: string, frequencia: string): Promise<string> {
  const res = await h.inject({ method: 'POST', url: '/v1/monitoramentos/processos', headers: acc.headers, payload: { numero_cnj: numero, frequencia } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.id;
}

/** The account's feed (GET /v1/eventos, its first 100 events) for one case and, when given, one kind. */
export async function caseFeed(
  h: Harness,
  acc: TestAccount,
  numero: string,
  kind?: string,
): Promise<{ event: string; source: string; monitor: { id: string } | null; data: any }[]> {
  const res = await h.inject({ method: 'GET', url: '/v1/eventos?limit=100', headers: acc.headers });
  assert.equal(res.statusCode, 200, res.body);
  return (json(res).data.items as { event: string; source: string; monitor: { id: string } | null; data: any }[]).filter(
    (e) => (kind === undefined || e.event === kind) && String(e.data.numeroCnj).replace(/\D/g, '') === numero,
  );
}
