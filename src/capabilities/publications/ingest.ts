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
import type { CaseMonitorsTable, DB, PublicationMatchesTable, PublicationMonitorsTable } from '../../platform/db/schema.ts';
import { brasiliaDay } from '../../platform/format.ts';
import { monitorAudience } from '../monitors/store.ts';
import { pageNews } from '../monitors/court-pages.ts';
import type { EventKind } from '../../platform/events/kinds.ts';
import type { Services } from '../../platform/services.ts';
import { eventOrigin, type SourceInfo } from '../../platform/ports/case-metadata.ts';
import type { PublicationRecord } from '../../platform/ports/publications.ts';
import { MonitorIndex } from './monitor-index.ts';
import { publicationView, type PublicationLinks } from './present.ts';
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

/** Intimação monitors and process monitors report a gazette movement; term and OAB publication monitors a new publication. */
export function eventKindFor(
  m: Pick<PublicationMonitorsTable, 'origem' | 'tipo'>,
): Extract<EventKind, 'diario_movimentacao_nova' | 'publicacao_judicial_nova'> {
  return m.origem === 'INTIMACOES' || m.tipo === 'PROCESSO' ? 'diario_movimentacao_nova' : 'publicacao_judicial_nova';
}

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
    const stored = await trx
      .selectFrom('publications')
      .select(['id', 'ativo'])
      .$if(refresh, (q) => q.select('raw'))
      .where(
        'id',
        'in',
        records.map((r) => r.id),
      )
      .execute();
    const known = new Map(stored.map((r) => [r.id, r.ativo]));
    const unseen = records.filter((r) => !known.has(r.id));
    await this.#updateCancellations(
      trx,
      records.filter((r) => known.get(r.id) === 1 && !r.ativo),
    );
    const storedRaw = new Map(stored.map((r) => [r.id, r.raw]));
    const changed = refresh ? records.filter((r) => known.get(r.id) === 1 && r.ativo && storedRaw.get(r.id) !== JSON.stringify(r.raw)) : [];
    await this.#updateChanged(trx, changed);
    // Another writer (a search reading the same gazette day, another worker) may store some of them
    // between the read and the insert: what it stored is not ours to index, match or announce.
    const inserted =
      unseen.length === 0
        ? new Set<string>()
        : new Set(
            (
              await trx
                .insertInto('publications')
                .values(unseen.map((r) => publicationRow(r, info, now)))
                .onConflict((oc) => oc.column('id').doNothing())
                .returning('id')
                .execute()
            ).map((r) => r.id),
          );
    const fresh = unseen.filter((r) => inserted.has(r.id));
    if (fresh.length > 0) {
      const lawyers = fresh.flatMap(lawyerRows);
      if (lawyers.length > 0)
        await trx
          .insertInto('publication_lawyers')
          .values(lawyers)
          .onConflict((oc) => oc.doNothing())
          .execute();
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

  /** Known publications whose item changed: the stored copy, its parties and lawyers replaced, new OABs indexed. */
  async #updateChanged(trx: Transaction<DB>, changed: PublicationRecord[]): Promise<void> {
    for (const r of changed) {
      await trx
        .updateTable('publications')
        .set({ raw: JSON.stringify(r.raw), destinatarios: JSON.stringify(r.destinatarios), advogados: JSON.stringify(r.advogados) })
        .where('id', '=', r.id)
        .execute();
    }
    const lawyers = changed.flatMap(lawyerRows);
    if (lawyers.length > 0)
      await trx
        .insertInto('publication_lawyers')
        .values(lawyers)
        .onConflict((oc) => oc.doNothing())
        .execute();
  }

  /** DJEN cancelled a publication we stored as active: keep it, marked. */
  async #updateCancellations(trx: Transaction<DB>, cancelled: PublicationRecord[]): Promise<void> {
    for (const r of cancelled) {
      await trx
        .updateTable('publications')
        .set({ ativo: 0, cancelamento: JSON.stringify(r.cancelamento), raw: JSON.stringify(r.raw) })
        .where('id', '=', r.id)
        .execute();
    }
  }

  /** One match, once: an event when the publication is news to the monitor (active, dated from its `desde` on). */
  async #record(trx: Transaction<DB>, m: PublicationMonitorsTable, r: PublicationRecord, info: SourceInfo, now: string): Promise<'none' | 'history' | 'event'> {
    const news = r.ativo && r.dataDisponibilizacao >= m.desde;
    if (!(await recordMatch(trx, { id: m.id, account_id: m.account_id, origem: m.origem }, r, now))) return 'none';
    await trx
      .updateTable('publication_monitors')
      .set((eb) => ({ publicacoes: eb('publicacoes', '+', 1) }))
      .where('id', '=', m.id)
      .execute();
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
    await trx.updateTable('publication_matches').set({ evento_id: eventId }).where('monitor_id', '=', m.id).where('publicacao_id', '=', r.id).execute();
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
    await trx.updateTable('publication_matches').set({ evento_id: eventId }).where('monitor_id', '=', m.id).where('publicacao_id', '=', r.id).execute();
    await pageNews(trx, m.id);
    return 'event';
  }
}

/** The match row, once per (monitor, publication): false when it was already recorded. */
async function recordMatch(
  trx: Transaction<DB>,
  m: { id: string; account_id: string; origem: PublicationMatchesTable['origem'] },
  r: PublicationRecord,
  now: string,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('publication_matches')
    .values({
      monitor_id: m.id,
      publicacao_id: r.id,
      account_id: m.account_id,
      origem: m.origem,
      data_disponibilizacao: r.dataDisponibilizacao,
      evento_id: null,
      criado_em: now,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** `fn` over `items`, one after the other (each writes in the same transaction). */
async function mapSerially<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await fn(item));
  return out;
}
