/**
 * One check of a radar (spec §4.8). The case-details provider says where the party appears (one
 * call for a CPF/CNPJ; one per name and per variation for a name); the numbers the radar has not
 * reported yet are brought into the case store (DataJud only for numbers the store lacks, the provider
 * only for parties it lacks), filtered, and each hit becomes a result with its event in the same
 * transaction. The baseline (a radar's first successful check, or the first after its filters were
 * widened) records what already existed: results with linha_de_base = 1 and no event.
 * Event kind: `novo_processo_envolvido` when the party is identified by CPF/CNPJ, `novo_processo`
 * for a name radar (a name alone does not identify a person).
 */
import type { Transaction } from 'kysely';
import { iso } from '../../platform/clock.ts';
import { checkCompleted } from '../../platform/monitoring/checks.ts';
import type { DB, RadarsTable } from '../../platform/db/schema.ts';
import { ApiError, isApiError } from '../../platform/errors.ts';
import { frequencyMs } from '../../platform/monitoring/frequency.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import type { CaseDetailsSource } from '../../platform/ports/case-details.ts';
import type { CaseParts, StoredCase } from '../processes/parts.ts';
import { correspondences, criteriaOf, mayBeInCourts, passesFilters, searchedNames, type Correspondence, type RadarCriteria } from './match.ts';
import type { RadarParts } from './parts.ts';
import { correspondenceView } from './present.ts';

export interface RadarMatch {
  caso: StoredCase;
  correspondencias: Correspondence[];
}

export interface CheckOutcome {
  /** Results this check added. */
  novos: number;
  /** Whether it was a baseline (its results sent no event). */
  linhaDeBase: boolean;
}

/** The provider's case numbers for the radar's term (and each variation of a name), deduplicated. */
export async function candidateNumbers(details: CaseDetailsSource, c: RadarCriteria): Promise<string[]> {
  if (c.tipo !== 'NOME') return details.findByDocument(c.normalizado);
  const found: string[] = [];
  for (const name of searchedNames(c)) found.push(...(await details.findByName(name)));
  return [...new Set(found)];
}

/** The cases not in `known` that the radar reports now. Throws SourceError when an upstream fails. */
export async function findMatches(cases: CaseParts, details: CaseDetailsSource, c: RadarCriteria, known: ReadonlySet<string>): Promise<RadarMatch[]> {
  const numbers = (await candidateNumbers(details, c)).filter((n) => !known.has(n) && mayBeInCourts(n, c));
  if (numbers.length === 0) return [];
  const stored = await loadCases(cases, numbers);
  return stored.filter((caso) => passesFilters(caso, c)).map((caso) => ({ caso, correspondencias: correspondences(caso, c) }));
}

/**
 * The cases with their parties, asking upstreams only for what the store lacks: a stored case is
 * good enough to match on (its class and parties do not go stale the way movements do). Numbers
 * DataJud does not know (yet) are left out and asked again at the next check.
 */
async function loadCases(m: CaseParts, numbers: string[]): Promise<StoredCase[]> {
  const inStore = await m.store.storedAmong(numbers);
  const missing = numbers.filter((n) => !inStore.has(n));
  if (missing.length > 0) await m.service.lookupMany(missing);
  return m.service.withDetails(await m.store.many(numbers));
}

/** Inserts one result (once) and, unless it is the baseline, its event: both in `trx`. True when created now. */
export async function recordResult(m: RadarParts, trx: Transaction<DB>, radar: RadarsTable, match: RadarMatch, baseline: boolean): Promise<boolean> {
  const { row } = match.caso;
  const result = {
    numeroCnj: row.numero_cnj,
    tribunal: row.tribunal,
    classe: row.classe_nome,
    dataAjuizamento: row.data_ajuizamento,
    correspondencias: match.correspondencias,
  };
  const id = await m.store.insertResult(trx, radar, result, { now: iso(m.services.clock.now()), baseline });
  if (!id || baseline) return id !== null;
  await m.services.events.record(trx, {
    kind: radar.tipo === 'NOME' ? 'novo_processo' : 'novo_processo_envolvido',
    numeroCnj: row.numero_cnj,
    tribunal: row.tribunal,
    source: m.services.sources.details?.info.name,
    audience: [{ accountId: radar.account_id, monitorType: 'radar', monitorId: radar.id, webhookUrl: radar.webhook_url }],
    data: {
      numeroCnj: row.numero_cnj,
      tribunal: row.tribunal,
      radarId: radar.id,
      resultadoId: id,
      termo: radar.termo,
      classe: row.classe_nome,
      dataAjuizamento: row.data_ajuizamento,
      correspondencias: match.correspondencias.map(correspondenceView),
    },
  });
  return true;
}

/**
 * Checks the radar now and schedules its next check. On failure the radar keeps `ultimo_erro`, stays
 * due (the next cycle retries) and nothing is recorded; the error is rethrown for the caller.
 */
export async function checkRadar(m: RadarParts, radar: RadarsTable): Promise<CheckOutcome> {
  const { clock, config, db } = m.services;
  const baseline = radar.ultima_verificacao_em === null;
  try {
    const details = m.services.sources.details;
    if (!details) throw new ApiError('DETAILS_UNAVAILABLE');
    const matches = await findMatches(m.cases, details, criteriaOf(radar), await m.store.resultNumbers(radar.id));
    let novos = 0;
    for (const match of matches) {
      if (await db.transaction().execute((trx) => recordResult(m, trx, radar, match, baseline))) novos++;
    }
    const now = clock.now();
    await m.store.checked(radar, checkCompleted(now, frequencyMs(radar.frequencia, config.monitorIntervalMs)));
    return { novos, linhaDeBase: baseline };
  } catch (err) {
    await m.store.update(radar.id, { ultimo_erro: describeFailure(err) });
    throw err;
  }
}

/** What `ultimoErro` says: the upstream and how it failed (as SOURCE_UNAVAILABLE does), or the error code; never internals. */
export function describeFailure(err: unknown): string {
  if (err instanceof SourceError) return `${err.source} failed (${err.failure}); the next cycle tries again.`;
  if (isApiError(err)) return `${err.code}: ${err.message}`;
  return 'INTERNAL_ERROR: unexpected failure; the next cycle tries again.';
}
