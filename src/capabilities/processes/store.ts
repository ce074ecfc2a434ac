/**
 * The case store: what the upstreams told us about each case, kept so lookups answer fast and so
 * monitors can tell what is new. Saving a case records, in the same transaction, the domain events its
 * changes produce (`novo_processo`, `nova_movimentacao`), which monitors and webhooks consume.
 *
 * `get` keeps recently read cases in memory (CaseCache, below) and answers from there while the case
 * row's stamp is unchanged; every write of a case changes its stamp, whichever process made it.
 */
import type { Kysely, Transaction } from 'kysely';
import { iso, type Clock } from '../../platform/clock.ts';
import type { CaseDocumentsTable, CasesTable, DB } from '../../platform/db/schema.ts';
import type { EventMovement } from '../../platform/events/catalog.ts';
import type { EventLog } from '../../platform/events/log.ts';
import { eventOrigin, type CaseRecord, type InstanceRecord, type MovementRecord, type SourceInfo } from '../../platform/ports/case-metadata.ts';
import { isParty, type CaseDetailsRecord, type PartyRecord } from '../../platform/ports/case-details.ts';
import type { CaseSearchIndex } from './search-index-store.ts';
import { prepared, preparedIn } from '../../platform/db/prepared.ts';
import { tickLoader } from '../../platform/db/tick-batch.ts';
import { adoptPageTexts, mergePageMovements } from './page-movements.ts';
import { CaseCache, STAMP_COLUMNS, stampOf, type Stamped } from './case-cache.ts';
import { mainInstance } from './main-instance.ts';
import type { StoredCase, StoredInstance } from './stored-case.ts';
import { insertMovements, movementKeys, movementOfRow, movementsPage } from './movements-store.ts';
import { replaceParties } from './parties-store.ts';
import { documentOf, documentsOf, replaceDocuments } from './documents-store.ts';

export type Executor = Kysely<DB> | Transaction<DB>;

export type { StoredCase, StoredInstance } from './stored-case.ts';

export interface SaveResult {
  newMovements: MovementRecord[];
  /** The details provider was never asked about this case (enrichment, spec §2.3). */
  needsDetails: boolean;
}

export class CaseStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  readonly #search: CaseSearchIndex;
  readonly #events: EventLog;
  /** The movements of `nova_movimentacao` events as REST shows them (movements.ts): given, so the store presents nothing itself. */
  readonly #presentMovement: (m: MovementRecord) => EventMovement;
  readonly #cache = new CaseCache();
  /** The stamps asked for in one turn, read by one query (db/tick-batch.ts). */
  readonly #stamps: (numeroCnj: string) => Promise<Stamped | undefined>;
  /** The rows of the cases missing from the cache asked for in one turn, read by one query. */
  readonly #row: (numeroCnj: string) => Promise<CasesTable | undefined>;
  // A cover missing from the cache reads these too: compiled once (platform/db/prepared.ts).
  readonly #parties;
  readonly #lawyers;
  readonly #latestMovement;
  constructor(db: Kysely<DB>, clock: Clock, search: CaseSearchIndex, events: EventLog, presentMovement: (m: MovementRecord) => EventMovement) {
    this.#db = db;
    this.#clock = clock;
    this.#search = search;
    this.#events = events;
    this.#presentMovement = presentMovement;
    // The stamps asked for in one turn, read by one query on both engines (db/tick-batch.ts). On SQLite
    // this is what makes the hot cover cheap: every statement outside a transaction is a read
    // transaction of its own, whose WAL read lock costs two fcntl calls, more than the read itself.
    const stamps = preparedIn((ids) =>
      db
        .selectFrom('cases')
        .select(['numero_cnj', ...STAMP_COLUMNS])
        .where('numero_cnj', 'in', ids),
    );
    this.#stamps = tickLoader(async (keys: string[]) => new Map((await stamps(db, keys)).rows.map(({ numero_cnj, ...stamp }) => [numero_cnj, stamp])));
    const rows = preparedIn((ids) => db.selectFrom('cases').selectAll().where('numero_cnj', 'in', ids));
    this.#row = tickLoader(async (keys: string[]) => new Map((await rows(db, keys)).rows.map((r) => [r.numero_cnj, r])));
    this.#parties = prepared(['n'], (p) => db.selectFrom('case_parties').selectAll().where('numero_cnj', '=', p.n).orderBy('posicao'));
    // Through the parties: case_lawyers is keyed by (party_id, posicao), with no index on numero_cnj.
    this.#lawyers = prepared(['n'], (p) =>
      db
        .selectFrom('case_lawyers')
        .innerJoin('case_parties', 'case_parties.id', 'case_lawyers.party_id')
        .selectAll('case_lawyers')
        .where('case_parties.numero_cnj', '=', p.n)
        .orderBy('case_lawyers.party_id')
        .orderBy('case_lawyers.posicao'),
    );
    this.#latestMovement = prepared(['n'], (p) =>
      db.selectFrom('case_movements').selectAll().where('numero_cnj', '=', p.n).orderBy('data_hora', 'desc').orderBy('key', 'desc').limit(1),
    );
  }

  async get(numeroCnj: string): Promise<StoredCase | undefined> {
    const stamp = await this.#stamps(numeroCnj);
    if (!stamp) return undefined;
    const cached = this.#cache.get(numeroCnj, stampOf(stamp));
    if (cached) return cached;
    const generation = this.#cache.generation();
    const row = await this.#row(numeroCnj);
    if (!row) return undefined;
    const [partes, latest] = await Promise.all([
      row.detalhes_em ? this.parties(numeroCnj) : Promise.resolve(null),
      this.#latestMovement(this.#db, { n: numeroCnj }),
    ]);
    const stored: StoredCase = {
      row,
      instancias: JSON.parse(row.instancias),
      partes,
      ultimaMovimentacao: latest.rows[0] ? movementOfRow(latest.rows[0]) : null,
    };
    this.#cache.set(numeroCnj, stampOf(row), stored, generation);
    return stored;
  }

  /** Writes what the metadata upstream returned; new movements and new cases become domain events. */
  async saveCase(record: CaseRecord, source: SourceInfo, trx: Transaction<DB>): Promise<SaveResult> {
    this.#cache.forget(record.numeroCnj);
    const now = iso(this.#clock.now());
    const existing = await trx.selectFrom('cases').select('detalhes_em').where('numero_cnj', '=', record.numeroCnj).executeTakeFirst();
    const known = await movementKeys(trx, record.numeroCnj);
    const all = record.instancias.flatMap((i) => i.movimentos);
    const fresh = all.filter((m) => !known.has(m.key));
    const main = mainInstance(record);
    const values = {
      tribunal: record.tribunal,
      fonte: source.name,
      sandbox: source.sandbox ? 1 : 0,
      classe_nome: main?.classe?.nome ?? null,
      data_ajuizamento: earliest(record.instancias.map((i) => i.dataAjuizamento)),
      atualizado_em: record.atualizadoEm,
      instancias: JSON.stringify(record.instancias.map(withoutMovements)),
      movimentos_total: known.size + fresh.length,
      consultado_em: now,
    };
    if (existing) await trx.updateTable('cases').set(values).where('numero_cnj', '=', record.numeroCnj).execute();
    else
      await trx
        .insertInto('cases')
        .values({
          numero_cnj: record.numeroCnj,
          ...values,
          valor_causa_centavos: null,
          detalhes_em: null,
          documentos_em: null,
          criado_em: now,
          consulta: null,
          partes_fonte: null,
        })
        .execute();
    if (fresh.length > 0) await insertMovements(trx, record.numeroCnj, fresh);
    // Movements only a court's page listed so far, now in DataJud too: one movement, DataJud's code and the
    // page's text, and no news again (the page's arrival was the news).
    const adopted = fresh.length > 0 && existing ? await adoptPageTexts(trx, record.numeroCnj, fresh) : new Set<string>();
    const news = adopted.size === 0 ? fresh : fresh.filter((m) => !adopted.has(m.key));
    await this.#reindex(trx, record.numeroCnj, record);
    const data = { numeroCnj: record.numeroCnj, tribunal: record.tribunal };
    if (!existing) {
      await this.#events.record(trx, {
        kind: 'novo_processo',
        ...data,
        source: eventOrigin(source),
        data: { ...data, classe: main?.classe ?? null, dataAjuizamento: values.data_ajuizamento },
        raw: record.raw,
      });
    } else if (news.length > 0) {
      await this.#events.record(trx, {
        kind: 'nova_movimentacao',
        ...data,
        source: eventOrigin(source),
        data: { ...data, movimentacoes: news.map(this.#presentMovement) },
        raw: record.raw,
      });
    }
    return { newMovements: news, needsDetails: !existing?.detalhes_em };
  }

  /**
   * Parties, lawyers and case value from the case-details provider; documents only when asked (a refresh).
   * A court's page read again that lists movements no source had is news: `nova_movimentacao` (issue 43
   * item 4); the first reading of a case's page is its baseline. Returns how many movements were news.
   */
  async saveDetails(details: CaseDetailsRecord, trx: Transaction<DB>, opts: { documents: boolean }): Promise<number> {
    const now = iso(this.#clock.now());
    const n = details.numeroCnj;
    this.#cache.forget(n);
    const set: Partial<CasesTable> = { valor_causa_centavos: details.valorCausaCentavos, detalhes_em: now, partes_fonte: details.fonte ?? null };
    if (opts.documents) set.documentos_em = now;
    // The case row first: on PostgreSQL its row lock queues a concurrent save of the same case's details (the
    // enrichment job and a refresh's or a summary's), which would otherwise delete parties the other is inserting
    // lawyers for, or announce the same page movements twice.
    await trx.updateTable('cases').set({ detalhes_em: now }).where('numero_cnj', '=', n).execute();
    let news: MovementRecord[] = [];
    if (details.consulta) {
      const { movimentos, segundoGrau, ...cover } = details.consulta;
      const before = await trx.selectFrom('cases').select(['consulta', 'tribunal', 'sandbox']).where('numero_cnj', '=', n).executeTakeFirstOrThrow();
      // The appeals' pages read under the number (issue 52 item 3): their covers beside the page's, their movements under their instance.
      const appeals = segundoGrau?.map(({ movimentos: _m, ...appeal }) => appeal);
      set.consulta = JSON.stringify(appeals ? { ...cover, segundoGrau: appeals } : cover);
      let merged = await mergePageMovements(trx, n, `G${details.consulta.grau}`, movimentos);
      // Each page's first reading is its baseline: the appeal's, too, once it is first read beside a known first degree.
      const added = before.consulta === null ? [] : [...merged.added];
      const appealKnown = before.consulta !== null && (JSON.parse(before.consulta) as { segundoGrau?: unknown }).segundoGrau !== undefined;
      for (const appeal of segundoGrau ?? []) {
        merged = await mergePageMovements(trx, n, appeal.instancia, appeal.movimentos);
        if (appealKnown) added.push(...merged.added);
      }
      set.movimentos_total = merged.total;
      if (added.length > 0) {
        news = added;
        const data = { numeroCnj: n, tribunal: before.tribunal };
        const source = eventOrigin({ name: details.consulta.fonte, sandbox: before.sandbox === 1 });
        await this.#events.record(trx, { kind: 'nova_movimentacao', ...data, source, data: { ...data, movimentacoes: news.map(this.#presentMovement) } });
      }
    }
    await trx.updateTable('cases').set(set).where('numero_cnj', '=', n).execute();
    await replaceParties(trx, n, details.partes);
    if (opts.documents) await replaceDocuments(trx, n, details.documentos);
    const row = await trx.selectFrom('cases').select(['instancias', 'tribunal']).where('numero_cnj', '=', n).executeTakeFirstOrThrow();
    await this.#reindex(trx, n, { numeroCnj: n, tribunal: row.tribunal, instancias: JSON.parse(row.instancias) }, details.partes);
    return news.length;
  }

  /** Newest first; `before` is the last row of the previous page. */
  movements(numeroCnj: string, limit: number, before?: { dataHora: string; key: string }, db: Executor = this.#db): Promise<MovementRecord[]> {
    return movementsPage(db, numeroCnj, limit, before);
  }

  async parties(numeroCnj: string, db: Executor = this.#db): Promise<PartyRecord[]> {
    const [{ rows: parties }, { rows: lawyers }] = await Promise.all([this.#parties(db, { n: numeroCnj }), this.#lawyers(db, { n: numeroCnj })]);
    return parties.map((p) => ({
      polo: p.polo,
      tipo: p.tipo,
      nome: p.nome,
      tipoPessoa: p.tipo_pessoa,
      documento: p.documento,
      advogados: lawyers
        .filter((l) => l.party_id === p.id)
        .map((l) => ({ nome: l.nome, oab: l.oab_uf && l.oab_numero ? { uf: l.oab_uf, numero: l.oab_numero } : null })),
      ...(p.grau ? { grau: p.grau } : {}),
    }));
  }

  /** The public documents its last refresh listed, newest first. */
  documents(numeroCnj: string): Promise<CaseDocumentsTable[]> {
    return documentsOf(this.#db, numeroCnj);
  }

  document(numeroCnj: string, documentoId: string): Promise<CaseDocumentsTable | undefined> {
    return documentOf(this.#db, numeroCnj, documentoId);
  }

  /**
   * Stored cases among `numeros`, in the order given. Every `get` is asked in the same turn, so their
   * stamps are one read and the rows of those missing from the cache one more (the tick loaders above).
   */
  async many(numeros: readonly string[]): Promise<StoredCase[]> {
    const found = await Promise.all(numeros.map((n) => this.get(n)));
    return found.filter((c): c is StoredCase => c !== undefined);
  }

  /**
   * Numbers of stored cases where a party has this CPF/CNPJ (bare digits): an index-only read of
   * case_parties_documento (a party's case exists: foreign key).
   */
  async numbersByDocument(documento: string): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('case_parties')
      .select('numero_cnj')
      .distinct()
      .where('documento', '=', documento)
      .orderBy('numero_cnj', 'desc')
      .execute();
    return rows.map((r) => r.numero_cnj);
  }

  /** The numbers among `numeros` that are stored. */
  async storedAmong(numeros: readonly string[]): Promise<Set<string>> {
    return new Set((await this.#db.selectFrom('cases').select('numero_cnj').where('numero_cnj', 'in', numeros).execute()).map((r) => r.numero_cnj));
  }

  /** The stored case's court, null when the case is not stored. */
  async tribunalOf(numeroCnj: string, db: Executor = this.#db): Promise<string | null> {
    return (await db.selectFrom('cases').select('tribunal').where('numero_cnj', '=', numeroCnj).executeTakeFirst())?.tribunal ?? null;
  }

  /** What a save of details compares against: whether (and when) they and the documents were stored before. */
  detailsState(trx: Executor, numeroCnj: string): Promise<Pick<CasesTable, 'detalhes_em' | 'tribunal' | 'documentos_em' | 'sandbox'> | undefined> {
    return trx.selectFrom('cases').select(['detalhes_em', 'tribunal', 'documentos_em', 'sandbox']).where('numero_cnj', '=', numeroCnj).executeTakeFirst();
  }

  /** Records that the details sources were asked and none knows the case (and, with `documents`, that its list is empty). */
  async markDetailsAsked(trx: Executor, numeroCnj: string, at: string, opts: { documents: boolean }): Promise<void> {
    this.#cache.forget(numeroCnj);
    await trx
      .updateTable('cases')
      .set(opts.documents ? { detalhes_em: at, documentos_em: at } : { detalhes_em: at })
      .where('numero_cnj', '=', numeroCnj)
      .execute();
  }

  async #reindex(
    trx: Executor,
    numeroCnj: string,
    c: Pick<CaseRecord, 'numeroCnj' | 'tribunal'> & { instancias: Pick<InstanceRecord, 'classe' | 'assuntos' | 'orgaoJulgador'>[] },
    partes?: PartyRecord[],
  ): Promise<void> {
    // A lawyer listed without a side is not a party: a search by a party's name does not find it.
    const names = (partes ?? (await this.parties(numeroCnj, trx))).filter(isParty);
    await this.#search.put(
      trx,
      numeroCnj,
      [
        numeroCnj,
        c.tribunal,
        ...c.instancias.flatMap((i) => [i.classe?.nome, i.orgaoJulgador?.nome, ...i.assuntos.map((a) => a.nome)]),
        ...names.map((p) => p.nome),
      ],
      names.map((p) => p.nome),
    );
  }
}

function withoutMovements(i: InstanceRecord): StoredInstance {
  const { movimentos, ...rest } = i;
  return { ...rest, quantidadeMovimentacoes: movimentos.length };
}

function earliest(dates: (string | null)[]): string | null {
  return dates.filter((d): d is string => d !== null).sort()[0] ?? null;
}

/** What another capability's summary line of stored cases reads (lawyers' processes, conventions §4.8): each case's cover fields and its parties in order. */
export async function caseHeadlineRows(db: Kysely<DB>, numeros: readonly string[]) {
  const [cases, parties] = await Promise.all([
    db.selectFrom('cases').select(['numero_cnj', 'classe_nome', 'data_ajuizamento', 'instancias']).where('numero_cnj', 'in', numeros).execute(),
    db.selectFrom('case_parties').select(['numero_cnj', 'polo', 'nome']).where('numero_cnj', 'in', numeros).orderBy('posicao').execute(),
  ]);
  return { cases, parties };
}
