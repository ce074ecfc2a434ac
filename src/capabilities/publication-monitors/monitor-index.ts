/**
 * The live intimação, publication and case monitors as one matcher (platform/matching): built once
 * from the tables (their stores: store.ts, the case monitors' through their door) and rebuilt only
 * when the monitors changed, so ingesting a publication costs one pass over its
 * text whatever the number of monitors. "Changed" is read from the tables themselves (monitor count,
 * latest update, active accounts), so a monitor created by another process is seen at the next batch.
 */
import type { Kysely } from 'kysely';
import type { CaseMonitorsTable, DB, PublicationMonitorsTable } from '../../platform/db/schema.ts';
import { PublicationMatcher } from '../../platform/matching/index.ts';
import { activeAccountCount } from '../../platform/monitoring/active-accounts.ts';
import type { PublicationRecord } from '../../platform/ports/publications.ts';
import { activeCaseMonitors, caseMonitorsVersion } from '../monitors/parts.ts';
import { monitorSourceOf } from './sources.ts';
import { activeMonitors, monitorsVersion } from './store.ts';

export interface LiveMonitors {
  /**
   * The live monitors a publication of `fonte` (DJEN, STF, DJE eleitoral) matches, each once, with
   * their filters applied: courts, sources (`fontes`), and intimação monitors hear DJEN only.
   */
  monitorsMatching(p: PublicationRecord, fonte: string): PublicationMonitorsTable[];
  /**
   * The live case monitors (spec §4.8 `processos`) of the case a DJEN communication is about (its
   * number, or one printed in its text: the PROCESSO patterns' rule), each once (issue 43 item 3).
   */
  caseMonitorsMatching(p: PublicationRecord, fonte: string): CaseMonitorsTable[];
  readonly size: number;
}

const RECENT_CHANGE_MS = 2_000;

const PATTERN_KIND = { OAB: 'oab', TERMO: 'termo', PROCESSO: 'processo' } as const;

function build(monitors: PublicationMonitorsTable[], caseMonitors: CaseMonitorsTable[]): LiveMonitors {
  // One pattern per distinct (kind, value): many accounts following one OAB, or one case, share it.
  const keys = new Map<string, number>();
  const owners: PublicationMonitorsTable[][] = [];
  const caseOwners: CaseMonitorsTable[][] = [];
  const patterns: { id: number; kind: 'oab' | 'termo' | 'processo'; value: string }[] = [];
  const patternOf = (tipo: PublicationMonitorsTable['tipo'], valor: string, termo: string) => {
    const key = `${tipo}:${valor}`;
    let id = keys.get(key);
    if (id === undefined) {
      id = owners.length;
      keys.set(key, id);
      owners.push([]);
      caseOwners.push([]);
      patterns.push({ id, kind: PATTERN_KIND[tipo], value: tipo === 'TERMO' ? termo : valor });
    }
    return id;
  };
  for (const m of monitors) owners[patternOf(m.tipo, m.valor, m.termo)].push(m);
  for (const m of caseMonitors) caseOwners[patternOf('PROCESSO', m.numero_cnj, m.numero_cnj)].push(m);
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
    caseMonitorsMatching(p, fonte) {
      // Case monitors hear DJEN's communications (the same-day source of every court), not the other gazettes.
      if (monitorSourceOf(fonte, p.tribunal) !== 'DJEN') return [];
      return matcher.match(p).flatMap((id) => caseOwners[id]);
    },
  };
}

export class MonitorIndex {
  readonly #db: Kysely<DB>;
  #version = '';
  #live: LiveMonitors = build([], []);

  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async current(): Promise<LiveMonitors> {
    const v = await monitorsVersion(this.#db);
    const accounts = await activeAccountCount(this.#db);
    // Case monitors: how many are live and the latest creation or removal (a check's updates change nothing matched).
    const c = await caseMonitorsVersion(this.#db);
    const version = `${v.key}:${accounts}:${c.key}`;
    if (version !== this.#version) {
      this.#live = build(await activeMonitors(this.#db), await activeCaseMonitors(this.#db));
      // A change stamped in the same millisecond as the latest one would not move the version: while the
      // latest change is that recent, the next batch reads the monitors again.
      const latest = [v.latest, c.created].filter(Boolean).map((t) => Date.parse(t as string));
      this.#version = latest.some((t) => t > Date.now() - RECENT_CHANGE_MS) ? '' : version;
    }
    return this.#live;
  }
}
