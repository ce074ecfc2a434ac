/**
 * What a lawyer's portfolio reads (portfolio.ts): the gazettes' rows naming an OAB (publication_lawyers)
 * and the stored cases whose parties it represents (case_lawyers), their latest movements, the names
 * and coverage the gazettes print.
 */
import type { Kysely } from 'kysely';
import { inLists } from '../../platform/db/in-lists.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { Oab } from '../../platform/identifiers/oab.ts';

/** Per case and gazette (DJEN, STF, DJE eleitoral) naming the OAB: its court, how many publications, the latest day. */
export async function gazetteCasesOfOab(db: Kysely<DB>, oab: Oab) {
  const rows = await db
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
  return rows.map((r) => ({ numeroCnj: r.numero_cnj!, fonte: r.fonte, tribunal: String(r.tribunal), publicacoes: Number(r.n), ultima: r.ultima as string }));
}

/** The stored cases whose parties the OAB represents, with their court. */
export async function storedCasesOfOab(db: Kysely<DB>, oab: Oab): Promise<{ numero_cnj: string; tribunal: string }[]> {
  return db
    .selectFrom('case_lawyers as l')
    .innerJoin('cases as c', 'c.numero_cnj', 'l.numero_cnj')
    .select(['l.numero_cnj', 'c.tribunal'])
    .distinct()
    .where('l.oab_uf', '=', oab.uf)
    .where('l.oab_numero', '=', `${oab.numero}${oab.suffix ?? ''}`)
    .execute();
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
