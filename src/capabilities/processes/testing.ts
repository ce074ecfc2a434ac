/** Case-route fixtures for the shared route suite (test/route-suite.test.ts): sandbox cases, refreshed ones. */
import assert from 'node:assert/strict';
import type { Harness, TestAccount } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { credit } from '../../platform/billing/ledger.ts';

/** A visible sandbox case with public documents, a different one per call. */
let nextCase = 0;
function sandboxCase(h: Harness): string {
  const cases = h.sources.sandbox!.dataset.cases.filter((c) => c.documentos.length > 0 && c.filedAt <= h.sources.sandbox!.dataset.now());
  return cases[nextCase++ % cases.length].numero;
}

/** A case the owner refreshed, with the refresh completed. */
async function refreshed(h: Harness, owner: TestAccount): Promise<string> {
  const cnj = sandboxCase(h);
  await credit(h.services.db, h.services.clock, owner.accountId, 1000, 'fixture: pays for the refresh');
  const res = await h.inject({ method: 'POST', url: `/v1/processos/cnj/${cnj}/solicitar-atualizacao`, headers: owner.headers });
  assert.equal(res.statusCode, 200, res.body);
  await h.runJobs();
  return cnj;
}

const DOWNLOAD = '/v1/processos/cnj/:cnj/documentos/:documentId/download';

export const routeFixtures: RouteFixtures = {
  owned: {
    '/v1/processos/cnj/:cnj': async (h) => ({ cnj: sandboxCase(h) }),
    '/v1/processos/cnj/:cnj/pdf': async (h) => ({ cnj: sandboxCase(h) }),
    '/v1/processos/cnj/:cnj/movimentacoes': async (h) => ({ cnj: sandboxCase(h) }),
    '/v1/processos/cnj/:cnj/solicitar-atualizacao': async (h) => ({ cnj: sandboxCase(h) }),
    // The account's own refresh: another account has none of this case, so it gets 404.
    '/v1/processos/cnj/:cnj/status-atualizacao': async (h, owner) => ({ cnj: await refreshed(h, owner) }),
    '/v1/processos/cnj/:cnj/documentos-publicos': async (h, owner) => ({ cnj: await refreshed(h, owner) }),
    [DOWNLOAD]: async (h, owner) => {
      const cnj = await refreshed(h, owner);
      const docs = await h.services.db.selectFrom('case_documents').select('documento_id').where('numero_cnj', '=', cnj).execute();
      return { cnj, documentId: docs[0].documento_id };
    },
  },
  // Public court data is the same for every account: these routes answer a stranger like the owner.
  publicData: [
    '/v1/processos/cnj/:cnj',
    '/v1/processos/cnj/:cnj/pdf',
    '/v1/processos/cnj/:cnj/movimentacoes',
    '/v1/processos/cnj/:cnj/solicitar-atualizacao',
    '/v1/processos/cnj/:cnj/documentos-publicos',
    DOWNLOAD,
  ],
  files: ['/v1/processos/cnj/:cnj/pdf', DOWNLOAD],
};
