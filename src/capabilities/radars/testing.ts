/**
 * Radar fixtures for the shared route suite (test/route-suite.test.ts) and the radar tests: objects
 * written straight into the store (no upstream, no charge, any balance), and a valid body per route.
 */
import type { Harness, TestAccount } from '../../../test/harness.ts';
import type { RouteFixtures } from '../../../test/route-fixtures.ts';
import { addMs, iso } from '../../platform/clock.ts';
import type { RadarsTable } from '../../platform/db/schema.ts';
import { newId } from '../../platform/ids.ts';
import { RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';

const BASE = '/v1/monitoramentos/novos-processos';

/** An ATIVO name radar of `owner`, as if created now with its baseline taken. */
export async function insertRadar(h: Harness, owner: TestAccount, overrides: Partial<RadarsTable> = {}): Promise<RadarsTable> {
  const now = h.services.clock.now();
  const row: RadarsTable = {
    id: newId('rad'),
    account_id: owner.accountId,
    termo: 'Fulana de Teste Fixture',
    tipo: 'NOME',
    termo_normalizado: 'fulana de teste fixture',
    variacoes: '[]',
    tribunais: '[]',
    classes: '[]',
    termos_obrigatorios: '[]',
    termos_proibidos: '[]',
    webhook_url: null,
    frequencia: 'DIARIA',
    status: 'ATIVO',
    preco_centavos: 500,
    resultados_total: 0,
    ultima_verificacao_em: iso(now),
    proxima_verificacao_em: iso(addMs(now, 86_400_000)),
    proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)),
    periodo: 1,
    ultima_sincronizacao_em: null,
    ultimo_erro: null,
    criado_em: iso(now),
    atualizado_em: iso(now),
    desativado_em: null,
    ...overrides,
  };
  await h.capabilities.radars.store.insert(h.services.db, row);
  return row;
}

/** A result of `radar` for a sandbox case number; returns the 20 digits. */
export async function insertResult(h: Harness, radar: RadarsTable, numeroCnj = h.sources.sandbox!.dataset.cases[0].numero): Promise<string> {
  const m = h.capabilities.radars;
  await h.services.db.transaction().execute((trx) =>
    m.store.insertResult(
      trx,
      radar,
      {
        numeroCnj,
        tribunal: 'TJSP',
        classe: 'Procedimento Comum Cível',
        dataAjuizamento: null,
        correspondencias: [],
      },
      { now: iso(h.services.clock.now()), baseline: true },
    ),
  );
  return numeroCnj;
}

/** For each radar route with path parameters: an object `owner` owns, and its params. */
const owned: RouteFixtures['owned'] = {
  [`${BASE}/:id`]: async (h, owner) => ({ id: (await insertRadar(h, owner)).id }),
  [`${BASE}/:id/resultados`]: async (h, owner) => ({ id: (await insertRadar(h, owner)).id }),
  [`${BASE}/:id/resultados/:numeroCnj/qualificar`]: async (h, owner) => {
    const radar = await insertRadar(h, owner);
    return { id: radar.id, numeroCnj: await insertResult(h, radar) };
  },
};

/** A valid body for each radar POST / PATCH route (creation finds nothing, so it stays fast). */
const bodies: RouteFixtures['bodies'] = {
  [BASE]: () => ({ termo: 'Pessoa Inexistente de Fixture', frequencia: 'SEMANAL' }),
  [`${BASE}/:id`]: () => ({ frequencia: 'SEMANAL', termos_proibidos: ['arquivamento'] }),
  [`${BASE}/:id/resultados/:numeroCnj/qualificar`]: () => ({ qualificacao: 'RELEVANTE', nota: 'fixture' }),
  [`${BASE}/resultados/arquivar`]: () => ({ ids: ['rrs_fixture_unknown'] }),
  [`${BASE}/resultados/desarquivar`]: () => ({ ids: ['rrs_fixture_unknown'] }),
};

export const routeFixtures: RouteFixtures = { owned, bodies };
