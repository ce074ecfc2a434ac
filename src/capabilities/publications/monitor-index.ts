/**
 * The live intimação and publication monitors as one matcher (platform/matching): built once from the
 * table and rebuilt only when the monitors changed, so ingesting a publication costs one pass over its
 * text whatever the number of monitors. "Changed" is read from the tables themselves (monitor count,
 * latest update, active accounts), so a monitor created by another process is seen at the next batch.
 */
import type { Kysely } from 'kysely';
import type { DB, PublicationMonitorsTable } from '../../platform/db/schema.ts';
import { PublicationMatcher } from '../../platform/matching/index.ts';
import type { PublicationRecord } from '../../platform/ports/publications.ts';
import { monitorSourceOf } from './monitor-sources.ts';

export interface LiveMonitors {
  /**
   * The live monitors a publication of `fonte` (DJEN, STF, DJE eleitoral) matches, each once, with
   * their filters applied: courts, sources (`fontes`), and intimação monitors hear DJEN only.
   */
  monitorsMatching(p: PublicationRecord, fonte: string): PublicationMonitorsTable[];
  readonly size: number;
}

const RECENT_CHANGE_MS = 2_000;

const PATTERN_KIND = { OAB: 'oab', TERMO: 'termo', PROCESSO: 'processo' } as const;

function build(monitors: PublicationMonitorsTable[]): LiveMonitors {
  // One pattern per distinct (kind, value): many accounts following one OAB share it.
  const keys = new Map<string, number>();
  const owners: PublicationMonitorsTable[][] = [];
  const patterns: { id: number; kind: 'oab' | 'termo' | 'processo'; value: string }[] = [];
  for (const m of monitors) {
    const key = `${m.tipo}:${m.valor}`;
    let id = keys.get(key);
    if (id === undefined) {
      id = owners.length;
      keys.set(key, id);
      owners.push([]);
      patterns.push({ id, kind: PATTERN_KIND[m.tipo], value: m.tipo === 'TERMO' ? m.termo : m.valor });
    }
    owners[id].push(m);
  }
  const courts = new Map(monitors.filter((m) => m.tribunais).map((m) => [m.id, new Set(JSON.parse(m.tribunais!) as string[])]));
  const sources = new Map(
    monitors.filter((m) => m.fontes || m.origem === 'INTIMACOES').map((m) => [m.id, new Set(m.fontes ? (JSON.parse(m.fontes) as string[]) : ['DJEN'])]),
  );
  const matcher = PublicationMatcher.build(patterns);
  return {
    size: monitors.length,
    monitorsMatching(p, fonte) {
      const source = monitorSourceOf(fonte, p.tribunal);
      const out: PublicationMonitorsTable[] = [];
      for (const id of matcher.match(p)) {
        for (const m of owners[id]) if ((courts.get(m.id)?.has(p.tribunal) ?? true) && (sources.get(m.id)?.has(source) ?? true)) out.push(m);
      }
      return out;
    },
  };
}

export class MonitorIndex {
  readonly #db: Kysely<DB>;
  #version = '';
  #live: LiveMonitors = build([]);

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async current(): Promise<LiveMonitors> {
    const v = await this.#db
      .selectFrom('publication_monitors')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('atualizado_em').as('latest')])
      .executeTakeFirstOrThrow();
    const accounts = await this.#db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    const version = `${v.n}:${v.latest ?? ''}:${accounts.n}`;
    if (version !== this.#version) {
      // Monitors of deactivated accounts hear nothing (their cycles skip them too).
      const monitors = await this.#db
        .selectFrom('publication_monitors as m')
        .innerJoin('accounts as a', 'a.id', 'm.account_id')
        .selectAll('m')
        .where('m.status', '=', 'ATIVO')
        .where('a.status', '=', 'active')
        .execute();
      this.#live = build(monitors);
      // A change stamped in the same millisecond as the latest one would not move the version: while the
      // latest change is that recent, the next batch reads the monitors again.
      this.#version = v.latest && Date.parse(v.latest as string) > Date.now() - RECENT_CHANGE_MS ? '' : version;
    }
    return this.#live;
  }
}
