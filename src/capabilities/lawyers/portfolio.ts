/**
 * A lawyer's processes as Tramita knows them, for one exact OAB: the cases the gazettes (DJEN) name
 * the OAB in, and the cases whose stored parties it represents (the case-details source). Deduplicated
 * by CNJ number (spec §2.3). The counts of the summary are kept apart on purpose: a recent publication
 * says the lawyer acts in the case, not that the case is still running at the court; only the case
 * store's own movements (DataJud) confirm that (`quantidadeAtivosConfirmados`).
 */
import { isClosingMovement } from '../processes/process-object.ts';
import { inLists } from '../../platform/db/in-lists.ts';
import type { Kysely } from 'kysely';
import { addMs, DAY_MS } from '../../platform/clock.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { Oab } from '../../platform/identifiers/oab.ts';

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
  const fromGazettes = await db
    .selectFrom('publication_lawyers as l')
    .innerJoin('publications as p', 'p.id', 'l.publicacao_id')
    .select((eb) => [
      'l.numero_cnj',
      'p.fonte',
      eb.fn.max('l.tribunal').as('tribunal'),
      eb.fn.countAll<number>().as('n'),
      eb.fn.max('l.data_disponibilizacao').as('ultima'),
    ])
    .where('l.oab', '=', oab.canonical)
    .where('l.numero_cnj', 'is not', null)
    .groupBy(['l.numero_cnj', 'p.fonte'])
    .execute();
  const fromCases = await db
    .selectFrom('case_lawyers as l')
    .innerJoin('cases as c', 'c.numero_cnj', 'l.numero_cnj')
    .select(['l.numero_cnj', 'c.tribunal'])
    .distinct()
    .where('l.oab_uf', '=', oab.uf)
    .where('l.oab_numero', '=', `${oab.numero}${oab.suffix ?? ''}`)
    .execute();
  const byCnj = new Map<string, LawyerProcess>();
  for (const r of fromGazettes) {
    const known = byCnj.get(r.numero_cnj!);
    if (!known) {
      byCnj.set(r.numero_cnj!, {
        numeroCnj: r.numero_cnj!,
        tribunal: String(r.tribunal),
        fontes: [r.fonte],
        publicacoes: Number(r.n),
        ultimaPublicacao: r.ultima as string,
      });
      continue;
    }
    known.fontes.push(r.fonte);
    known.publicacoes += Number(r.n);
    if ((r.ultima as string) > (known.ultimaPublicacao ?? '')) known.ultimaPublicacao = r.ultima as string;
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

/** Each stored case's latest movement (its code and time). */
export async function latestMovements(db: Kysely<DB>, numeros: readonly string[]): Promise<Map<string, { codigo: string; dataHora: string }>> {
  const out = new Map<string, { codigo: string; dataHora: string }>();
  for (const chunk of inLists(numeros)) {
    const latest = await db
      .selectFrom('case_movements as m')
      .select(['m.numero_cnj', 'm.codigo', 'm.data_hora'])
      .where('m.numero_cnj', 'in', chunk)
      .where('m.data_hora', '=', (eb) =>
        eb
          .selectFrom('case_movements as n')
          .select((x) => x.fn.max('n.data_hora').as('d'))
          .whereRef('n.numero_cnj', '=', 'm.numero_cnj'),
      )
      .execute();
    for (const m of latest) out.set(m.numero_cnj, { codigo: m.codigo, dataHora: m.data_hora });
  }
  return out;
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

/** The names the gazettes print for this OAB, most frequent first. */
export async function nameVariants(db: Kysely<DB>, oab: Oab): Promise<{ nome: string; publicacoes: number }[]> {
  const rows = await db
    .selectFrom('publication_lawyers')
    .select((eb) => ['nome', eb.fn.countAll<number>().as('n')])
    .where('oab', '=', oab.canonical)
    .groupBy('nome')
    .orderBy('n', 'desc')
    .orderBy('nome')
    .limit(20)
    .execute();
  return rows.map((r) => ({ nome: r.nome, publicacoes: Number(r.n) }));
}

/** The official coverage behind the counts: which courts' gazettes named the OAB, and over which days. */
export async function gazetteCoverage(db: Kysely<DB>, oab: Oab) {
  const rows = await db
    .selectFrom('publication_lawyers')
    .select((eb) => ['tribunal', eb.fn.min('data_disponibilizacao').as('desde'), eb.fn.max('data_disponibilizacao').as('ate')])
    .where('oab', '=', oab.canonical)
    .groupBy('tribunal')
    .orderBy('tribunal')
    .execute();
  return rows.map((r) => ({ tribunal: r.tribunal, desde: r.desde as string, ate: r.ate as string }));
}
