/**
 * The case store: what the upstreams told us about each case, kept so lookups answer fast and so
 * monitors can tell what is new. Saving a case records, in the same transaction, the domain events its
 * changes produce (`novo_processo`, `nova_movimentacao`), which monitors and webhooks consume.
 */
import type { Kysely, Transaction } from 'kysely';
import { iso, type Clock } from '../../platform/clock.ts';
import type { CaseDocumentsTable, CaseMovementsTable, CasesTable, DB } from '../../platform/db/schema.ts';
import { newId } from '../../platform/ids.ts';
import type { EventLog } from '../../platform/events/log.ts';
import { eventOrigin, type CaseDetailsRecord, type CaseRecord, type InstanceRecord, type MovementRecord, type PartyRecord, type SourceInfo } from '../../sources/ports.ts';
import type { CaseSearchIndex } from './search-index.ts';

export type Executor = Kysely<DB> | Transaction<DB>;

/** An instance as stored on the case row: its movements live in case_movements. */
export type StoredInstance = Omit<InstanceRecord, 'movimentos'> & { quantidadeMovimentacoes: number };

export interface StoredCase {
  row: CasesTable;
  instancias: StoredInstance[];
  partes: PartyRecord[] | null;
  ultimaMovimentacao: MovementRecord | null;
}

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
  constructor(db: Kysely<DB>, clock: Clock, search: CaseSearchIndex, events: EventLog) {
    this.#db = db;
    this.#clock = clock;
    this.#search = search;
    this.#events = events;
  }

  async get(numeroCnj: string): Promise<StoredCase | undefined> {
    const row = await this.#db.selectFrom('cases').selectAll().where('numero_cnj', '=', numeroCnj).executeTakeFirst();
    if (!row) return undefined;
    const [partes, latest] = await Promise.all([
      row.detalhes_em ? this.parties(numeroCnj) : Promise.resolve(null),
      this.movements(numeroCnj, 1),
    ]);
    return { row, instancias: JSON.parse(row.instancias), partes, ultimaMovimentacao: latest[0] ?? null };
  }

  /** Writes what the metadata upstream returned; new movements and new cases become domain events. */
  async saveCase(record: CaseRecord, source: SourceInfo, trx: Transaction<DB>): Promise<SaveResult> {
    const now = iso(this.#clock.now());
    const existing = await trx.selectFrom('cases').select('detalhes_em').where('numero_cnj', '=', record.numeroCnj).executeTakeFirst();
    const known = new Set((await trx.selectFrom('case_movements').select('key').where('numero_cnj', '=', record.numeroCnj).execute()).map((r) => r.key));
    const all = record.instancias.flatMap((i) => i.movimentos);
    const fresh = all.filter((m) => !known.has(m.key));
    const main = mainInstance(record);
    const values = {
      tribunal: record.tribunal, fonte: source.name, sandbox: source.sandbox ? 1 : 0,
      classe_nome: main?.classe?.nome ?? null, data_ajuizamento: earliest(record.instancias.map((i) => i.dataAjuizamento)),
      atualizado_em: record.atualizadoEm, instancias: JSON.stringify(record.instancias.map(withoutMovements)),
      raw: JSON.stringify(record.raw), movimentos_total: known.size + fresh.length, consultado_em: now,
    };
    if (existing) await trx.updateTable('cases').set(values).where('numero_cnj', '=', record.numeroCnj).execute();
    else await trx.insertInto('cases').values({ numero_cnj: record.numeroCnj, ...values, valor_causa_centavos: null, detalhes_em: null, documentos_em: null, criado_em: now }).execute();
    if (fresh.length > 0) await insertMovements(trx, record.numeroCnj, fresh, now);
    await this.#reindex(trx, record.numeroCnj, record);
    const data = { numeroCnj: record.numeroCnj, tribunal: record.tribunal };
    if (!existing) {
      await this.#events.record(trx, { kind: 'novo_processo', ...data, source: eventOrigin(source), data: { ...data, classe: main?.classe ?? null, dataAjuizamento: values.data_ajuizamento }, raw: record.raw });
    } else if (fresh.length > 0) {
      await this.#events.record(trx, { kind: 'nova_movimentacao', ...data, source: eventOrigin(source), data: { ...data, movimentacoes: fresh.map(publicMovement) }, raw: record.raw });
    }
    return { newMovements: fresh, needsDetails: !existing?.detalhes_em };
  }

  /** Parties, lawyers and case value from the case-details provider; documents only when asked (a refresh). */
  async saveDetails(details: CaseDetailsRecord, trx: Transaction<DB>, opts: { documents: boolean }): Promise<void> {
    const now = iso(this.#clock.now());
    const n = details.numeroCnj;
    await trx.deleteFrom('case_lawyers').where('numero_cnj', '=', n).execute();
    await trx.deleteFrom('case_parties').where('numero_cnj', '=', n).execute();
    for (const [posicao, p] of details.partes.entries()) {
      const id = newId('pty');
      await trx.insertInto('case_parties').values({ id, numero_cnj: n, posicao, polo: p.polo, tipo: p.tipo, nome: p.nome, tipo_pessoa: p.tipoPessoa, documento: p.documento }).execute();
      for (const [i, a] of p.advogados.entries()) {
        await trx.insertInto('case_lawyers').values({ party_id: id, numero_cnj: n, posicao: i, nome: a.nome, oab_uf: a.oab?.uf ?? null, oab_numero: a.oab?.numero ?? null }).execute();
      }
    }
    const set: Partial<CasesTable> = { valor_causa_centavos: details.valorCausaCentavos, detalhes_em: now };
    if (opts.documents) {
      await trx.deleteFrom('case_documents').where('numero_cnj', '=', n).execute();
      for (const d of details.documentos) {
        await trx.insertInto('case_documents').values({ numero_cnj: n, documento_id: d.id, titulo: d.titulo, tipo: d.tipo, data_juntada: d.dataJuntada, mime_type: d.mimeType, tamanho_bytes: d.tamanhoBytes }).execute();
      }
      set.documentos_em = now;
    }
    await trx.updateTable('cases').set(set).where('numero_cnj', '=', n).execute();
    const row = await trx.selectFrom('cases').select(['instancias', 'tribunal']).where('numero_cnj', '=', n).executeTakeFirstOrThrow();
    await this.#reindex(trx, n, { numeroCnj: n, tribunal: row.tribunal, instancias: JSON.parse(row.instancias) }, details.partes);
  }

  /** Newest first; `before` is the last row of the previous page. */
  async movements(numeroCnj: string, limit: number, before?: { dataHora: string; key: string }, db: Executor = this.#db): Promise<MovementRecord[]> {
    let q = db.selectFrom('case_movements').selectAll().where('numero_cnj', '=', numeroCnj);
    if (before) {
      q = q.where((eb) => eb.or([eb('data_hora', '<', before.dataHora), eb.and([eb('data_hora', '=', before.dataHora), eb('key', '<', before.key)])]));
    }
    const rows = await q.orderBy('data_hora', 'desc').orderBy('key', 'desc').limit(limit).execute();
    return rows.map(movementOfRow);
  }

  async parties(numeroCnj: string, db: Executor = this.#db): Promise<PartyRecord[]> {
    const [parties, lawyers] = await Promise.all([
      db.selectFrom('case_parties').selectAll().where('numero_cnj', '=', numeroCnj).orderBy('posicao').execute(),
      db.selectFrom('case_lawyers').selectAll().where('numero_cnj', '=', numeroCnj).orderBy('posicao').execute(),
    ]);
    return parties.map((p) => ({
      polo: p.polo, tipo: p.tipo, nome: p.nome, tipoPessoa: p.tipo_pessoa, documento: p.documento,
      advogados: lawyers.filter((l) => l.party_id === p.id).map((l) => ({ nome: l.nome, oab: l.oab_uf && l.oab_numero ? { uf: l.oab_uf, numero: l.oab_numero } : null })),
    }));
  }

  async documents(numeroCnj: string): Promise<CaseDocumentsTable[]> {
    return this.#db.selectFrom('case_documents').selectAll().where('numero_cnj', '=', numeroCnj).orderBy('data_juntada', 'desc').orderBy('documento_id').execute();
  }

  async document(numeroCnj: string, documentoId: string): Promise<CaseDocumentsTable | undefined> {
    return this.#db.selectFrom('case_documents').selectAll().where('numero_cnj', '=', numeroCnj).where('documento_id', '=', documentoId).executeTakeFirst();
  }

  /** Stored cases among `numeros`, in the order given. */
  async many(numeros: readonly string[]): Promise<StoredCase[]> {
    const found: StoredCase[] = [];
    for (const n of numeros) {
      const c = await this.get(n);
      if (c) found.push(c);
    }
    return found;
  }

  /** Numbers of stored cases where a party has this CPF/CNPJ (bare digits). */
  async numbersByDocument(documento: string): Promise<string[]> {
    const rows = await this.#db.selectFrom('case_parties').innerJoin('cases', 'cases.numero_cnj', 'case_parties.numero_cnj')
      .select('case_parties.numero_cnj').distinct().where('case_parties.documento', '=', documento)
      .orderBy('case_parties.numero_cnj', 'desc').execute();
    return rows.map((r) => r.numero_cnj);
  }

  async #reindex(trx: Executor, numeroCnj: string, c: Pick<CaseRecord, 'numeroCnj' | 'tribunal'> & { instancias: Pick<InstanceRecord, 'classe' | 'assuntos' | 'orgaoJulgador'>[] }, partes?: PartyRecord[]): Promise<void> {
    const names = partes ?? (await this.parties(numeroCnj, trx));
    await this.#search.put(trx, numeroCnj, [
      numeroCnj, c.tribunal,
      ...c.instancias.flatMap((i) => [i.classe?.nome, i.orgaoJulgador?.nome, ...i.assuntos.map((a) => a.nome)]),
      ...names.map((p) => p.nome),
    ]);
  }
}

async function insertMovements(trx: Transaction<DB>, numeroCnj: string, movements: MovementRecord[], now: string): Promise<void> {
  // Chunks keep each statement under both engines' bound-parameter limits.
  for (let i = 0; i < movements.length; i += 100) {
    const rows: CaseMovementsTable[] = movements.slice(i, i + 100).map((m) => ({
      numero_cnj: numeroCnj, key: m.key, grau: m.grau, codigo: m.codigo, nome: m.nome, data_hora: m.dataHora,
      complementos: JSON.stringify(m.complementos), orgao_julgador: m.orgaoJulgador ? JSON.stringify(m.orgaoJulgador) : null, visto_em: now,
    }));
    await trx.insertInto('case_movements').values(rows).onConflict((oc) => oc.columns(['numero_cnj', 'key']).doNothing()).execute();
  }
}

function movementOfRow(r: CaseMovementsTable): MovementRecord {
  return {
    key: r.key, grau: r.grau, codigo: r.codigo, nome: r.nome, dataHora: r.data_hora,
    complementos: JSON.parse(r.complementos), orgaoJulgador: r.orgao_julgador ? JSON.parse(r.orgao_julgador) : null,
  };
}

/** A movement as integrators see it (the same shape in the API and in events). */
export function publicMovement(m: MovementRecord) {
  return { id: m.key, dataHora: m.dataHora, codigo: m.codigo, nome: m.nome, grau: m.grau, complementos: m.complementos, orgaoJulgador: m.orgaoJulgador };
}

function withoutMovements(i: InstanceRecord): StoredInstance {
  const { movimentos, ...rest } = i;
  return { ...rest, quantidadeMovimentacoes: movimentos.length };
}

/** The first-instance document when there is one: its class and court unit describe the case. */
export function mainInstance<T extends { grau: string }>(c: { instancias: T[] }): T | undefined {
  return c.instancias.find((i) => i.grau === 'G1') ?? c.instancias[0];
}

function earliest(dates: (string | null)[]): string | null {
  return dates.filter((d): d is string => d !== null).sort()[0] ?? null;
}
