/**
 * A case's public documents as its last refresh listed them (case_documents, spec §4.3); the files of
 * the courts' ones once read are in document-files-store.ts.
 */
import type { Kysely, Transaction } from 'kysely';
import type { CaseDocumentsTable, DB } from '../../platform/db/schema.ts';
import type { PublicDocumentRecord } from '../../platform/ports/case-details.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** Newest first. */
export function documentsOf(db: Executor, numeroCnj: string): Promise<CaseDocumentsTable[]> {
  return db.selectFrom('case_documents').selectAll().where('numero_cnj', '=', numeroCnj).orderBy('data_juntada', 'desc').orderBy('documento_id').execute();
}

export function documentOf(db: Executor, numeroCnj: string, documentoId: string): Promise<CaseDocumentsTable | undefined> {
  return db.selectFrom('case_documents').selectAll().where('numero_cnj', '=', numeroCnj).where('documento_id', '=', documentoId).executeTakeFirst();
}

/** The ids the case's list has now. */
export async function documentIds(db: Executor, numeroCnj: string): Promise<Set<string>> {
  return new Set((await db.selectFrom('case_documents').select('documento_id').where('numero_cnj', '=', numeroCnj).execute()).map((r) => r.documento_id));
}

/** The case's list, replaced whole. */
export async function replaceDocuments(trx: Transaction<DB>, n: string, documentos: readonly PublicDocumentRecord[]): Promise<void> {
  await trx.deleteFrom('case_documents').where('numero_cnj', '=', n).execute();
  for (const d of documentos) {
    await trx
      .insertInto('case_documents')
      .values({
        numero_cnj: n,
        documento_id: d.id,
        titulo: d.titulo,
        tipo: d.tipo,
        data_juntada: d.dataJuntada,
        mime_type: d.mimeType,
        tamanho_bytes: d.tamanhoBytes,
        fonte: d.fonte ?? null,
        origem: d.origem ?? 'provedor',
        restricao: d.restricao ?? null,
      })
      .execute();
  }
}

/** Marks a listed document as not public (`restricao` says why), until the next refresh lists it again. */
export async function restrictDocument(db: Executor, numeroCnj: string, documentoId: string, restricao: string): Promise<void> {
  await db.updateTable('case_documents').set({ restricao }).where('numero_cnj', '=', numeroCnj).where('documento_id', '=', documentoId).execute();
}
