/**
 * Ingesting DJEN communications, from whatever brought them (a monitor's query, a lawyer lookup, an
 * OAB search, a caderno): each publication is stored once (by DJEN id) and, when new, matched in one
 * pass against every live intimação and publication monitor (platform/matching). Each match is
 * recorded once per (monitor, publication) and, when the publication is news to that monitor, becomes
 * an event with its webhook deliveries, all in the batch's transaction: nothing is stored without its
 * events, and a publication seen again never notifies twice.
 */
import type { Transaction } from 'kysely';
import { iso } from '../../platform/clock.ts';
import type { CaseMonitorsTable, DB, PublicationMonitorsTable } from '../../platform/db/schema.ts';
import { brasiliaDay } from '../../platform/format.ts';
import { monitorAudience, pageNews } from '../monitors/parts.ts';
import type { Services } from '../../platform/services.ts';
import { eventOrigin, type SourceInfo } from '../../platform/ports/case-metadata.ts';
import type { PublicationRecord } from '../../platform/ports/publications.ts';
import { eventKindFor, MonitorIndex } from '../publication-monitors/parts.ts';
import { publicationView, type PublicationLinks } from './present.ts';
import { countMonitorMatch, indexLawyers, insertPublications, linkMatchEvent, recordMatch, storedStates, updatePublications } from './ingest-store.ts';
import { lawyerRows, publicationRow, PublicationSearchIndex, searchableText } from './store.ts';

export interface IngestSummary {
  /** Publications stored for the first time. */
  novas: number;
  /** Already stored (a cancellation seen later updates the stored copy). */
  conhecidas: number;
  /** Already stored, and changed since (with `refresh`): the stored copy updated. */
  atualizadas: number;
  /** Matches recorded (monitor × publication). */
  correspondencias: number;
  /** Events emitted (matches that were news to their monitor). */
  eventos: number;
}

/** Rows per transaction: large cadernos are ingested in slices, so no transaction holds the writer long. */
const SLICE = 500;

export class PublicationIngest {
  readonly #s: Services;
  readonly #search: PublicationSearchIndex;
  readonly #monitors: MonitorIndex;
  readonly #links: PublicationLinks;

  constructor(s: Services, links: PublicationLinks) {
    this.#s = s;
    this.#links = links;
    this.#search = new PublicationSearchIndex(s.database.engine);
    this.#monitors = new MonitorIndex(s.db);
  }

  /**
   * `refresh`: a known publication whose item changed since it was stored (an STF item published after
   * its divulgação) gets the new item, its new lawyers indexed, and passes the matcher again (a match
   * is recorded once, so only new ones count).
   */
  async ingest(records: readonly PublicationRecord[], info: SourceInfo, o: { refresh?: boolean } = {}): Promise<IngestSummary> {
    const total: IngestSummary = { novas: 0, conhecidas: 0, atualizadas: 0, correspondencias: 0, eventos: 0 };
    const unique = [...new Map(records.map((r) => [r.id, r])).values()];
    for (let i = 0; i < unique.length; i += SLICE) {
      const slice = unique.slice(i, i + SLICE);
      const matcher = await this.#monitors.current();
      const s = await this.#s.db.transaction().execute((trx) => this.#slice(trx, slice, info, matcher, o.refresh === true));
      total.novas += s.novas;
      total.conhecidas += s.conhecidas;
      total.atualizadas += s.atualizadas;
      total.correspondencias += s.correspondencias;
      total.eventos += s.eventos;
    }
    return total;
  }

  async #slice(
    trx: Transaction<DB>,
    records: PublicationRecord[],
    info: SourceInfo,
    matcher: Awaited<ReturnType<MonitorIndex['current']>>,
    refresh: boolean,
  ): Promise<IngestSummary> {
    const now = iso(this.#s.clock.now());
    // The stored item only when it may have changed (`refresh`): it is the largest column.
    const stored = await storedStates(
      trx,
      records.map((r) => r.id),
      refresh,
    );
    const known = new Map(stored.map((r) => [r.id, r.ativo]));
    const unseen = records.filter((r) => !known.has(r.id));
    // DJEN cancelled a publication we stored as active: keep it, marked.
    const cancelled = records.filter((r) => known.get(r.id) === 1 && !r.ativo);
    await updatePublications(
      trx,
      cancelled.map((r) => ({ id: r.id, set: { ativo: 0, cancelamento: JSON.stringify(r.cancelamento), raw: JSON.stringify(r.raw) } })),
    );
    const storedRaw = new Map(stored.map((r) => [r.id, r.raw]));
    const changed = refresh ? records.filter((r) => known.get(r.id) === 1 && r.ativo && storedRaw.get(r.id) !== JSON.stringify(r.raw)) : [];
    // Known publications whose item changed: the stored copy, its parties and lawyers replaced, new OABs indexed.
    await updatePublications(
      trx,
      changed.map((r) => ({
        id: r.id,
        set: { raw: JSON.stringify(r.raw), destinatarios: JSON.stringify(r.destinatarios), advogados: JSON.stringify(r.advogados) },
      })),
    );
    await indexLawyers(trx, changed.flatMap(lawyerRows));
    // Another writer (a search reading the same gazette day, another worker) may store some of them
    // between the read and the insert: what it stored is not ours to index, match or announce.
    const inserted = await insertPublications(
      trx,
      unseen.map((r) => publicationRow(r, info, now)),
    );
    const fresh = unseen.filter((r) => inserted.has(r.id));
    if (fresh.length > 0) {
      await indexLawyers(trx, fresh.flatMap(lawyerRows));
      await this.#search.add(
        trx,
        fresh.map((r) => ({ id: r.id, texto: searchableText(r) })),
      );
    }
    let correspondencias = 0;
    let eventos = 0;
    for (const r of [...fresh, ...changed]) {
      const outcomes = [
        ...(await mapSerially(matcher.monitorsMatching(r, info.name), (monitor) => this.#record(trx, monitor, r, info, now))),
        ...(await mapSerially(matcher.caseMonitorsMatching(r, info.name), (monitor) => this.#recordForCase(trx, monitor, r, info, now))),
      ];
      correspondencias += outcomes.filter((o) => o !== 'none').length;
      eventos += outcomes.filter((o) => o === 'event').length;
    }
    return { novas: fresh.length, conhecidas: records.length - fresh.length, atualizadas: changed.length, correspondencias, eventos };
  }

  /** One match, once: an event when the publication is news to the monitor (active, dated from its `desde` on). */
  async #record(trx: Transaction<DB>, m: PublicationMonitorsTable, r: PublicationRecord, info: SourceInfo, now: string): Promise<'none' | 'history' | 'event'> {
    const news = r.ativo && r.dataDisponibilizacao >= m.desde;
    if (!(await recordMatch(trx, { id: m.id, account_id: m.account_id, origem: m.origem }, r, now))) return 'none';
    await countMonitorMatch(trx, m.id);
    if (!news) return 'history';
    const eventId = await this.#s.events.record(trx, {
      kind: eventKindFor(m),
      numeroCnj: r.numeroCnj,
      tribunal: r.tribunal,
      source: eventOrigin(info),
      audience: [
        { accountId: m.account_id, monitorType: m.origem === 'INTIMACOES' ? 'intimacao_oab' : 'publicacoes', monitorId: m.id, webhookUrl: m.webhook_url },
      ],
      data: {
        numeroCnj: r.numeroCnj,
        tribunal: r.tribunal,
        monitoramento: { id: m.id, origem: m.origem, tipo: m.tipo, termo: m.termo },
        // The text as the court published it (HTML) beside publicationView's plain text: receivers read either.
        publicacao: { ...publicationView(r, this.#links), textoHtml: r.texto },
      },
      raw: r.raw,
    });
    await linkMatchEvent(trx, m.id, r.id, eventId);
    return 'event';
  }

  /**
   * A DJEN communication of a monitored case (issue 43 item 3): once per (monitor, communication), and
   * news (`diario_movimentacao_nova`, spec §6.4, with its text and date) when it is active and published
   * from the day the monitor was created on; older ones are the case's history. DataJud lags the
   * courts by days: this is how a case monitor hears of the case the day the court publishes.
   */
  async #recordForCase(trx: Transaction<DB>, m: CaseMonitorsTable, r: PublicationRecord, info: SourceInfo, now: string): Promise<'none' | 'history' | 'event'> {
    if (!(await recordMatch(trx, { id: m.id, account_id: m.account_id, origem: 'PROCESSOS' }, r, now))) return 'none';
    if (!(r.ativo && r.dataDisponibilizacao >= (brasiliaDay(m.criado_em) ?? m.criado_em.slice(0, 10)))) return 'history';
    const eventId = await this.#s.events.record(trx, {
      kind: 'diario_movimentacao_nova',
      numeroCnj: m.numero_cnj,
      tribunal: m.tribunal,
      source: eventOrigin(info),
      audience: monitorAudience(m),
      data: {
        numeroCnj: m.numero_cnj,
        tribunal: m.tribunal,
        monitorId: m.id,
        monitoramento: { id: m.id, origem: 'PROCESSOS', tipo: 'PROCESSO', termo: null },
        publicacao: { ...publicationView(r, this.#links), textoHtml: r.texto },
      },
      raw: r.raw,
    });
    await linkMatchEvent(trx, m.id, r.id, eventId);
    await pageNews(trx, m.id);
    return 'event';
  }
}

/** `fn` over `items`, one after the other (each writes in the same transaction). */
async function mapSerially<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await fn(item));
  return out;
}
