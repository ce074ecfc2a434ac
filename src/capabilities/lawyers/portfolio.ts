/**
 * A lawyer's processes as Tramita knows them, for one exact OAB: the cases the gazettes (DJEN) name
 * the OAB in, and the cases whose stored parties it represents (the case-details source). Deduplicated
 * by CNJ number (spec §2.3). The counts of the summary are kept apart on purpose: a recent publication
 * says the lawyer acts in the case, not that the case is still running at the court; only the case
 * store's own movements (DataJud) confirm that (`quantidadeAtivosConfirmados`).
 */
import type { Kysely } from 'kysely';
import { isClosingMovement } from '../processes/parts.ts';
import { addMs, DAY_MS } from '../../platform/clock.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { Oab } from '../../platform/identifiers/oab.ts';
import { gazetteCasesOfOab, latestMovements, storedCasesOfOab } from './portfolio-store.ts';

export { gazetteCoverage, latestMovements, nameVariants } from './portfolio-store.ts';

/** A publication within this many days makes a process "recent"; older ones are historical. */
export const RECENT_PROCESS_DAYS = 90;
/** A stored case counts as confirmed active when its newest movement is this recent and does not close it. */
export const ACTIVE_MOVEMENT_DAYS = 365;

export interface LawyerProcess {
  numeroCnj: string;
  tribunal: string;
  /** Where the link comes from: the gazettes (DJEN, STF, DJE eleitoral) and/or the case-details source (PORTAL). */
  fontes: string[];
  publicacoes: number;
  ultimaPublicacao: string | null;
}

/** Every process of the OAB, newest publication first (cases known only from the store last, by number). */
export async function processesOfOab(db: Kysely<DB>, oab: Oab): Promise<LawyerProcess[]> {
  // Per case and gazette (DJEN, STF, DJE eleitoral): a case named in several gazettes lists each.
  const fromGazettes = await gazetteCasesOfOab(db, oab);
  const fromCases = await storedCasesOfOab(db, oab);
  const byCnj = new Map<string, LawyerProcess>();
  for (const r of fromGazettes) {
    const known = byCnj.get(r.numeroCnj);
    if (!known) {
      byCnj.set(r.numeroCnj, { numeroCnj: r.numeroCnj, tribunal: r.tribunal, fontes: [r.fonte], publicacoes: r.publicacoes, ultimaPublicacao: r.ultima });
      continue;
    }
    known.fontes.push(r.fonte);
    known.publicacoes += r.publicacoes;
    if (r.ultima > (known.ultimaPublicacao ?? '')) known.ultimaPublicacao = r.ultima;
  }
  for (const r of fromCases) {
    const known = byCnj.get(r.numero_cnj);
    if (known) known.fontes.push('PORTAL');
    else byCnj.set(r.numero_cnj, { numeroCnj: r.numero_cnj, tribunal: r.tribunal, fontes: ['PORTAL'], publicacoes: 0, ultimaPublicacao: null });
  }
  return [...byCnj.values()].sort(newestFirst);
}

function newestFirst(a: LawyerProcess, b: LawyerProcess): number {
  const x = a.ultimaPublicacao ?? '';
  const y = b.ultimaPublicacao ?? '';
  return x < y ? 1 : x > y ? -1 : a.numeroCnj < b.numeroCnj ? -1 : a.numeroCnj > b.numeroCnj ? 1 : 0;
}

/** The processes whose stored case has a recent movement that does not close it. */
export async function confirmedActive(db: Kysely<DB>, numeros: readonly string[], now: Date): Promise<Set<string>> {
  const since = addMs(now, -ACTIVE_MOVEMENT_DAYS * DAY_MS).toISOString();
  const active = new Set<string>();
  for (const [numero, latest] of await latestMovements(db, numeros)) {
    if (latest.dataHora >= since && !isClosingMovement(latest.codigo)) active.add(numero);
  }
  return active;
}
