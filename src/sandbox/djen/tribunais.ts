/**
 * `GET /api/v1/comunicacao/tribunal` (djen.md §4.5): the courts grouped by UF, each with the time of
 * its latest communication. Regional courts over several UFs are listed at their seat, national ones
 * in the DF. Which courts: every court the sandbox simulates (all but the STF, which DJEN lacks too).
 */
import { PLACES } from '../data/places.ts';
import { brStamp } from './dates.ts';
import type { DjenStore } from './store.ts';

const SEATS: Record<string, string> = {
  TRF1: 'DF',
  TRF2: 'RJ',
  TRF3: 'SP',
  TRF4: 'RS',
  TRF5: 'PE',
  TRF6: 'MG',
  TRT8: 'PA',
  TRT10: 'DF',
  TRT11: 'AM',
  TRT14: 'RO',
};

export interface TribunalGroup {
  uf: string;
  nomeEstado: string;
  instituicoes: { sigla: string; nome: string; dataUltimoEnvio: string | null }[];
}

/** Latest sending time of a visible communication, per court. */
function lastSent(store: DjenStore, today: number): Map<string, number> {
  const last = new Map<string, number>();
  const t = store.table;
  for (let r = t.ranksUpTo(today) - 1; r >= 0 && last.size < store.dataset.profiles.size; r--) {
    const sigla = store.dataset.cases[t.caseOf[t.posOf[r]]].court.sigla;
    if (!last.has(sigla)) last.set(sigla, store.resolve(t.posOf[r]).createdAt);
  }
  for (const ref of store.publishedRefs()) {
    const c = store.resolve(ref);
    if (c.day <= today && c.createdAt > (last.get(c.tribunal) ?? -Infinity)) last.set(c.tribunal, c.createdAt);
  }
  return last;
}

export function tribunalList(store: DjenStore, today: number): TribunalGroup[] {
  const last = lastSent(store, today);
  const groups = new Map<string, TribunalGroup>();
  const courts = [...store.dataset.profiles.values()].map((p) => p.court).sort((a, b) => a.sigla.localeCompare(b.sigla));
  for (const court of courts) {
    const uf = SEATS[court.sigla] ?? (court.ufs[0] === 'BR' ? 'DF' : court.ufs[0]);
    let group = groups.get(uf);
    if (!group) {
      group = { uf, nomeEstado: PLACES[uf]?.estado ?? uf, instituicoes: [] };
      groups.set(uf, group);
    }
    const sent = last.get(court.sigla);
    group.instituicoes.push({ sigla: court.sigla, nome: court.nome, dataUltimoEnvio: sent === undefined ? null : brStamp(sent) });
  }
  return [...groups.values()].sort((a, b) => a.uf.localeCompare(b.uf));
}
