/**
 * A court's consultation page lists movements with their text; DataJud lists them with TPU codes and
 * no text. Merged without duplicates (issue 31): a page movement on the same Brasília day as a stored
 * movement with the same title (accents, case and spacing aside) is that movement: it keeps its code
 * and takes the page's text. A page movement without such a twin is stored on its own, with an empty
 * code, until DataJud lists it: then the DataJud movement takes its text and the page's row goes.
 * A page-only movement is news when the page brings it (store.saveDetails announces it); DataJud's
 * later copy of it is not news again (adoptPageTexts says which ones, store.saveCase leaves them out).
 */
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { brasiliaDay, brasiliaDayStart, isoDayOf } from '../../platform/format.ts';
import type { MovementRecord } from '../../platform/ports/case-metadata.ts';
import type { PageMovementRecord } from '../../platform/ports/case-details.ts';
import { grauOf } from './main-instance.ts';
import { deleteMovement, insertMovementRows, lowerMovementCount, movementsToMerge, pageOnlyMovements, setMovementText } from './movements-store.ts';

/** A title as compared: no accents, lower case, single spaces, no final punctuation. */
export function titleKey(title: string): string {
  return title
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.;:]+$/, '')
    .trim();
}

/** The page's day or instant as the store keeps instants (ISO UTC); a bare day is its midnight in Brasília. */
function instantOf(data: string): string {
  return isoDayOf(data) ? brasiliaDayStart(data) : new Date(data).toISOString();
}

const dayOf = (isoInstant: string) => brasiliaDay(isoInstant) ?? isoInstant.slice(0, 10);

/**
 * Writes a page's movements into a case's movements: texts onto their twins, the rest as rows of their
 * own (stable keys: a page read again finds its rows as twins). Returns the case's movement count and
 * the rows added (movements no source had listed before: the page's news).
 */
export async function mergePageMovements(
  trx: Transaction<DB>,
  n: string,
  grau: string,
  page: readonly PageMovementRecord[],
): Promise<{ total: number; added: MovementRecord[] }> {
  const rows = await movementsToMerge(trx, n);
  // Coded movements first: a page movement's twin is DataJud's when both exist. Twins are of the same
  // degree: the appeal's "Recebidos os autos" is not the first degree's (issue 52 item 3).
  const pool = new Map<string, typeof rows>();
  const degree = grauOf(grau).numero;
  for (const r of [...rows].sort((a, b) => Number(a.codigo === '') - Number(b.codigo === ''))) {
    if (grauOf(r.grau).numero !== degree) continue;
    const k = `${dayOf(r.data_hora)}|${titleKey(r.nome)}`;
    pool.set(k, [...(pool.get(k) ?? []), r]);
  }
  const seen = new Map<string, number>();
  const fresh = [];
  for (const [i, m] of page.entries()) {
    const at = instantOf(m.data);
    const k = `${dayOf(at)}|${titleKey(m.titulo)}`;
    const twin = pool.get(k)?.shift();
    if (twin) {
      if (m.texto !== null && twin.texto !== m.texto) {
        await setMovementText(trx, n, { dataHora: twin.data_hora, key: twin.key }, m.texto);
      }
      continue;
    }
    const nth = seen.get(k) ?? 0;
    seen.set(k, nth + 1);
    // Movements of one day share its midnight: the key, the listing's tie-breaker (descending), keeps the
    // page's order with the position counted from the oldest, which new movements (listed on top) never shift.
    // The first degree's keys as they always were; another instance's name it, so the two pages' rows never share a key.
    const seed = grau === 'G1' ? `consulta|${k}|${nth}` : `consulta|${grau}|${k}|${nth}`;
    const key = `pg${String(page.length - 1 - i).padStart(6, '0')}-${createHash('sha1').update(seed).digest('hex').slice(0, 24)}`;
    fresh.push({
      numero_cnj: n,
      key,
      grau,
      codigo: '',
      nome: m.titulo,
      data_hora: at,
      complementos: '[]',
      orgao_julgador: null,
      texto: m.texto,
    });
  }
  await insertMovementRows(trx, fresh);
  const added = fresh.map((r) => ({
    key: r.key,
    grau: r.grau,
    codigo: '',
    nome: r.nome,
    dataHora: r.data_hora,
    complementos: [],
    orgaoJulgador: null,
    texto: r.texto,
  }));
  return { total: rows.length + fresh.length, added };
}

/**
 * DataJud's new movements take the texts of the page-only rows they twin, and those rows go. Returns
 * the keys of the DataJud movements that did: the same movements as before, so no news (issue 43).
 */
export async function adoptPageTexts(trx: Transaction<DB>, n: string, fresh: readonly MovementRecord[]): Promise<Set<string>> {
  const pageRows = await pageOnlyMovements(trx, n);
  const adopted = new Set<string>();
  if (pageRows.length === 0) return adopted;
  for (const m of fresh) {
    if (m.codigo === '') continue;
    const degree = grauOf(m.grau).numero;
    const i = pageRows.findIndex((r) => grauOf(r.grau).numero === degree && dayOf(r.data_hora) === dayOf(m.dataHora) && titleKey(r.nome) === titleKey(m.nome));
    if (i < 0) continue;
    const [row] = pageRows.splice(i, 1);
    await setMovementText(trx, n, m, row!.texto);
    await deleteMovement(trx, n, { dataHora: row!.data_hora, key: row!.key });
    adopted.add(m.key);
  }
  if (adopted.size > 0) await lowerMovementCount(trx, n, adopted.size);
  return adopted;
}
