/**
 * Local search of the gazettes' publications in the publication store, on both engines: by source,
 * court, period, lawyer (OAB index), case number, and words (the full-text index, folded by
 * platform/text.ts as every publication is: accents, case and punctuation ignored, every word as a
 * prefix), newest first with a (day, id) cursor.
 */
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../../platform/db/database.ts';
import type { DB, PublicationsTable } from '../../platform/db/schema.ts';
import { searchTokens } from '../../platform/text.ts';
import { beforeDay, PublicationSearchIndex, type DayCursor } from '../publications/parts.ts';

export interface GazetteFilter {
  /** The store's `fonte` (the source's name: STF, DJE eleitoral). */
  fonte: string;
  tribunal?: string;
  inicio?: string;
  fim?: string;
  /** Canonical OAB (SP123456). */
  oab?: string;
  numeroCnj?: string;
  /** Free words: the text, parties, lawyers, process. */
  palavras?: string[];
}

/** Most words one gazette search sends to the full-text index (termo, parte, processo, relator together). */
const MAX_WORDS = 24;

/** The folded words of what a person typed in several fields at once (platform/text.ts searchTokens). */
export function searchWords(...texts: (string | undefined)[]): string[] {
  return searchTokens(texts.filter(Boolean).join(' '), MAX_WORDS);
}

export async function searchGazette(db: Kysely<DB>, engine: Engine, f: GazetteFilter, o: { limit: number; before?: DayCursor }): Promise<PublicationsTable[]> {
  let q = db.selectFrom('publications as p').selectAll('p').where('p.fonte', '=', f.fonte);
  if (f.tribunal) q = q.where('p.tribunal', '=', f.tribunal);
  if (f.inicio) q = q.where('p.data_disponibilizacao', '>=', f.inicio);
  if (f.fim) q = q.where('p.data_disponibilizacao', '<=', f.fim);
  if (f.numeroCnj) q = q.where('p.numero_cnj', '=', f.numeroCnj);
  if (f.oab) {
    const oab = f.oab;
    q = q.where('p.id', 'in', (eb) => eb.selectFrom('publication_lawyers').select('publicacao_id').where('oab', '=', oab));
  }
  if (f.palavras && f.palavras.length > 0) q = q.where(sql<boolean>`p.id IN (${new PublicationSearchIndex(engine).idsMatching(f.palavras)})`);
  if (o.before) {
    const b = o.before;
    q = q.where((eb) => beforeDay(eb, { day: 'p.data_disponibilizacao', id: 'p.id' }, b));
  }
  return q.orderBy('p.data_disponibilizacao', 'desc').orderBy('p.id', 'desc').limit(o.limit).execute();
}
