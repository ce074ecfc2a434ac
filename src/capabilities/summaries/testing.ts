/** Summary-route fixtures for the shared route suite (test/route-suite.test.ts), and helpers for its tests. */
import assert from 'node:assert/strict';
import type { Harness, TestAccount } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { credit } from '../../platform/billing/ledger.ts';

/** A visible sandbox case, a different one per call. */
let nextCase = 0;
export function summaryCase(h: Harness): string {
  const cases = h.sources.sandbox!.dataset.cases.filter((c) => c.filedAt <= h.sources.sandbox!.dataset.now());
  return cases[(nextCase++ * 7) % cases.length].numero;
}

/** Requests a summary of `cnj` for `owner` and runs the jobs until it ends; returns its providerRequestId. */
export async function summarised(h: Harness, owner: TestAccount, cnj: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${cnj}/resumo-ia/solicitar-atualizacao`, headers: owner.headers, payload: body });
  assert.equal(res.statusCode, 200, res.body);
  await h.runJobs();
  return (JSON.parse(res.body) as { data: { providerRequestId: string } }).data.providerRequestId;
}

async function ownersSummary(h: Harness, owner: TestAccount): Promise<Record<string, string>> {
  await credit(h.services.db, h.services.clock, owner.accountId, 1000, 'fixture: pays for the summary');
  const cnj = summaryCase(h);
  await summarised(h, owner, cnj);
  return { cnj };
}

export const routeFixtures: RouteFixtures = {
  owned: {
    '/v1/processos/cnj/:cnj/resumo-ia/solicitar-atualizacao': async (h) => ({ cnj: summaryCase(h) }),
    // The account's own executions: another account has none of this case, so its status is 404.
    '/v1/processos/cnj/:cnj/resumo-ia/status': ownersSummary,
    '/v1/processos/cnj/:cnj/resumo-ia': ownersSummary,
  },
  // The case is public: any account may ask for (and read) its own summary of it.
  publicData: ['/v1/processos/cnj/:cnj/resumo-ia/solicitar-atualizacao', '/v1/processos/cnj/:cnj/resumo-ia'],
};
