/**
 * What the shared route suite (test/route-suite.test.ts) needs to exercise the intimação routes: an
 * owner's monitor of one fixed OAB (written directly, priced 0: the suite's owners may have no credits),
 * the query strings and bodies that name it, and a stored publication for the content route.
 */
import type { Harness, TestAccount } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { createMonitor } from '../../platform/monitoring/lifecycle.ts';
import { PUBLICATION_MONITORS } from '../publication-monitors/parts.ts';
import { publicationRecord } from '../publications/testing.ts';

/** Every owner is a new account, so one OAB serves them all. */
const OAB = 'SP999001';

async function monitored(h: Harness, owner: TestAccount): Promise<Record<string, string>> {
  const s = h.services;
  await createMonitor(s, PUBLICATION_MONITORS, {
    accountId: owner.accountId,
    origem: 'INTIMACOES',
    target: { tipo: 'OAB', valor: OAB, termo: OAB },
    priceCentavos: 0,
  });
  return {};
}

async function storedPublication(h: Harness): Promise<Record<string, string>> {
  // No hash: the content route then needs no certidão URL from the source.
  const record = publicationRecord({ oabs: [OAB], hash: null });
  await h.capabilities.publications.ingest.ingest([record], { name: 'DJEN', sandbox: true });
  return { diarioId: record.id };
}

export const routeFixtures: RouteFixtures = {
  owned: { '/v1/intimacoes/publicacoes/:diarioId': (h) => storedPublication(h) },
  setups: { '/v1/intimacoes/oab': monitored, '/v1/intimacoes': monitored },
  // Query strings by route (`METHOD url`).
  queries: { 'GET /v1/intimacoes': () => `oab=${OAB}`, 'DELETE /v1/intimacoes/oab': () => `oab=${OAB}` },
  // POST creates it again (reused, free) and PUT changes nothing: both valid for any owner.
  bodies: { '/v1/intimacoes/oab': () => ({ oab: OAB }) },
  // The content of a publication is public gazette data: any account reads it.
  publicData: ['/v1/intimacoes/publicacoes/:diarioId'],
};
