/**
 * The precatório store: records upserted by `<fonte>:<tribunal>:<numero>` (a re-import updates, never
 * duplicates), the creditor only as a keyed fingerprint, and the listing in the order a court's list
 * reads (court, budget year, chronological order) with a keyset cursor on `ordenacao`.
 */
import type { Kysely } from 'kysely';
import type { DB, PrecatorioHarvestsTable, PrecatorioImportsTable, PrecatoriosTable } from '../../platform/db/schema.ts';
import { foldText } from '../../platform/text.ts';
import type { PrecatorioRow } from './rows.ts';

export interface RecordOrigin {
  fonte: string;
  tribunal: string;
  fonteUrl: string | null;
  importacaoId: string | null;
  coletadoEm: string;
}

function ordenacao(tribunal: string, ano: number | null, ordem: number | null): string {
  return `${tribunal}|${ano ?? 9999}|${String(ordem ?? 999_999_999).padStart(9, '0')}`;
}

export function precatorioRecord(r: PrecatorioRow, o: RecordOrigin, fingerprint: (doc: string) => string): PrecatoriosTable {
  return {
    id: `${o.fonte}:${o.tribunal}:${r.numero}`,
    fonte: o.fonte,
    tribunal: o.tribunal,
    numero: r.numero,
    numero_processo: r.numeroProcesso,
    ente_devedor: r.enteDevedor,
    ente_busca: r.enteDevedor ? foldText(r.enteDevedor) : null,
    natureza: r.natureza,
    ano_orcamento: r.anoOrcamento,
    ordem: r.ordem,
    situacao: r.situacao,
    valor_centavos: r.valorCentavos,
    credor_hash: r.credorDocumento ? fingerprint(r.credorDocumento) : null,
    fonte_url: o.fonteUrl,
    importacao_id: o.importacaoId,
    coletado_em: o.coletadoEm,
    ordenacao: ordenacao(o.tribunal, r.anoOrcamento, r.ordem),
    classe: r.classe ?? null,
  };
}

/** Inserts or updates records (one statement per slice); the same id twice in a slice: the last wins. */
export async function upsertPrecatorios(db: Kysely<DB>, rows: PrecatoriosTable[]): Promise<void> {
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  if (unique.length === 0) return;
  await db
    .insertInto('precatorios')
    .values(unique)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        numero_processo: eb.ref('excluded.numero_processo'),
        ente_devedor: eb.ref('excluded.ente_devedor'),
        ente_busca: eb.ref('excluded.ente_busca'),
        natureza: eb.ref('excluded.natureza'),
        ano_orcamento: eb.ref('excluded.ano_orcamento'),
        ordem: eb.ref('excluded.ordem'),
        situacao: eb.ref('excluded.situacao'),
        valor_centavos: eb.ref('excluded.valor_centavos'),
        credor_hash: eb.ref('excluded.credor_hash'),
        fonte_url: eb.ref('excluded.fonte_url'),
        importacao_id: eb.ref('excluded.importacao_id'),
        coletado_em: eb.ref('excluded.coletado_em'),
        ordenacao: eb.ref('excluded.ordenacao'),
        classe: eb.ref('excluded.classe'),
      })),
    )
    .execute();
}

export interface PrecatorioFilter {
  tribunal?: string;
  /** Folded fragment of the debtor's name. */
  ente?: string;
  ano?: number;
  situacao?: string;
  natureza?: string;
  numeroProcesso?: string;
  credorHash?: string;
}

export type PrecatorioPosition = { ordenacao: string; id: string };

export async function listPrecatorios(db: Kysely<DB>, f: PrecatorioFilter, o: { limit: number; after?: PrecatorioPosition }): Promise<PrecatoriosTable[]> {
  let q = db.selectFrom('precatorios').selectAll();
  // A court, or a court and a year, is a prefix of `ordenacao`: one range of its index ('}' follows
  // '|'). A cursor raises the range's start, so a deep page starts its walk where the last one ended.
  const prefix = f.tribunal ? (f.ano !== undefined ? `${f.tribunal}|${f.ano}|` : `${f.tribunal}|`) : '';
  const from = o.after && o.after.ordenacao > prefix ? o.after.ordenacao : prefix;
  if (from) q = q.where('ordenacao', '>=', from);
  if (prefix) q = q.where('ordenacao', '<', `${prefix.slice(0, -1)}}`);
  if (o.after) {
    const a = o.after;
    q = q.where((eb) => eb.or([eb('ordenacao', '>', a.ordenacao), eb('id', '>', a.id)]));
  }
  if (f.ente) q = q.where('ente_busca', 'like', `%${f.ente.replace(/[%_\\]/g, '')}%`);
  if (f.ano !== undefined) q = q.where('ano_orcamento', '=', f.ano);
  if (f.situacao) q = q.where((eb) => eb(eb.fn('lower', ['situacao']), '=', f.situacao!.toLowerCase()));
  if (f.natureza) q = q.where((eb) => eb(eb.fn('lower', ['natureza']), '=', f.natureza!.toLowerCase()));
  if (f.numeroProcesso) q = q.where('numero_processo', '=', f.numeroProcesso);
  if (f.credorHash) q = q.where('credor_hash', '=', f.credorHash);
  return q.orderBy('ordenacao').orderBy('id').limit(o.limit).execute();
}

/** A court's harvest mark: the newest update read so far and the records it brought. */
export async function harvestMark(db: Kysely<DB>, tribunal: string): Promise<PrecatorioHarvestsTable | undefined> {
  return db.selectFrom('precatorio_harvests').selectAll().where('tribunal', '=', tribunal).executeTakeFirst();
}

export async function saveHarvestMark(db: Kysely<DB>, row: PrecatorioHarvestsTable): Promise<void> {
  await db
    .insertInto('precatorio_harvests')
    .values(row)
    .onConflict((oc) => oc.column('tribunal').doUpdateSet(row))
    .execute();
}

/** An import begun: its row, counts at zero, not concluded. */
export async function recordImport(db: Kysely<DB>, row: PrecatorioImportsTable): Promise<void> {
  await db.insertInto('precatorio_imports').values(row).execute();
}

/** An import concluded, with its counts. */
export async function concludeImport(
  db: Kysely<DB>,
  id: string,
  counts: Pick<PrecatorioImportsTable, 'linhas' | 'aceitas' | 'rejeitadas' | 'concluido_em'>,
): Promise<void> {
  await db.updateTable('precatorio_imports').set(counts).where('id', '=', id).execute();
}
