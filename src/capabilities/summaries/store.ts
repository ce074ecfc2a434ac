/** The executions of AI summaries (case_summaries): one per request, owned by the account that asked. */
import type { Kysely, Transaction, Updateable } from 'kysely';
import { iso, type Clock } from '../../platform/clock.ts';
import type { CaseSummariesTable, DB } from '../../platform/db/schema.ts';
import { newId } from '../../platform/ids.ts';
import type { FactPublication } from './facts.ts';

export const LIVE = ['PENDENTE', 'PROCESSANDO'] as const;

export class SummaryStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  constructor(db: Kysely<DB>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** The account's running execution for the case, if any. */
  live(accountId: string, numeroCnj: string, db: Kysely<DB> = this.#db): Promise<CaseSummariesTable | undefined> {
    return db
      .selectFrom('case_summaries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('numero_cnj', '=', numeroCnj)
      .where('status', 'in', LIVE)
      .orderBy('criado_em', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async create(
    trx: Transaction<DB>,
    r: { accountId: string; numeroCnj: string; requestId: string; priceCentavos: number; enviarCallback: boolean },
  ): Promise<CaseSummariesTable> {
    const row: CaseSummariesTable = {
      id: newId('res'),
      account_id: r.accountId,
      numero_cnj: r.numeroCnj,
      status: 'PENDENTE',
      etapa: 'na_fila',
      enviar_callback: r.enviarCallback ? 1 : 0,
      request_id: r.requestId,
      preco_centavos: r.priceCentavos,
      refresh_id: null,
      metodo: null,
      modelo: null,
      conteudo: null,
      entrada_hash: null,
      aviso: null,
      tokens_entrada: null,
      tokens_saida: null,
      erro_codigo: null,
      erro_mensagem: null,
      criado_em: iso(this.#clock.now()),
      iniciado_em: null,
      concluido_em: null,
    };
    await trx.insertInto('case_summaries').values(row).execute();
    return row;
  }

  get(id: string): Promise<CaseSummariesTable | undefined> {
    return this.#db.selectFrom('case_summaries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** One execution of the account for the case: `id`, or the latest one (any status); another account's is never found. */
  find(accountId: string, numeroCnj: string, id?: string): Promise<CaseSummariesTable | undefined> {
    let q = this.#db.selectFrom('case_summaries').selectAll().where('account_id', '=', accountId).where('numero_cnj', '=', numeroCnj);
    if (id !== undefined) q = q.where('id', '=', id);
    return q.orderBy('criado_em', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  }

  /** The account's latest finished summary of the case. */
  latestFinished(accountId: string, numeroCnj: string): Promise<CaseSummariesTable | undefined> {
    return this.#db
      .selectFrom('case_summaries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('numero_cnj', '=', numeroCnj)
      .where('status', '=', 'FINALIZADO')
      .orderBy('concluido_em', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Moves a running execution; false when it had already ended. */
  async update(id: string, set: Updateable<CaseSummariesTable>, db: Kysely<DB> = this.#db): Promise<boolean> {
    const r = await db.updateTable('case_summaries').set(set).where('id', '=', id).where('status', 'in', LIVE).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}

/** Active gazette publications that name the case, newest first. */
export async function linkedPublications(db: Kysely<DB>, numeroCnj: string, limit: number): Promise<FactPublication[]> {
  const rows = await db
    .selectFrom('publications')
    .select(['id', 'data_disponibilizacao', 'tribunal', 'tipo_comunicacao', 'tipo_documento', 'orgao', 'texto'])
    .where('numero_cnj', '=', numeroCnj)
    .where('ativo', '=', 1)
    .orderBy('data_disponibilizacao', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    data: r.data_disponibilizacao,
    tribunal: r.tribunal,
    tipoComunicacao: r.tipo_comunicacao,
    tipoDocumento: r.tipo_documento,
    orgao: r.orgao ? (JSON.parse(r.orgao) as { nome: string }).nome : null,
    texto: r.texto,
  }));
}
