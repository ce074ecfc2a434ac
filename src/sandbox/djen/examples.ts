/**
 * Handy DJEN examples for the CLI banner, `/_sandbox` and tests: an OAB (busy, but demo-sized)
 * whose communications come in several spellings (so "ask both spellings" shows), a case with several communications,
 * a party name and a court-day with a caderno.
 */
import type { Lawyer } from '../data/model.ts';
import { isoDay } from './dates.ts';
import { OAB_SPELLINGS, type OabSpelling } from './oab.ts';
import { itemLawyers } from './render.ts';
import type { DjenStore } from './store.ts';
import { flagKind } from './table.ts';

export interface DjenExamples {
  /** Visible communications naming this OAB, by how `numero_oab` spells it. */
  oab: { uf: string; numero: string; nome: string; comunicacoes: number; spellings: Record<OabSpelling, number> } | null;
  numeroProcesso: string | null;
  nomeParte: string | null;
  caderno: { siglaTribunal: string; data: string; meio: 'D' } | null;
}

function spellingsOf(store: DjenStore, lawyer: Lawyer, today: number): Record<OabSpelling, number> {
  const counts = Object.fromEntries(OAB_SPELLINGS.map((s) => [s, 0])) as Record<OabSpelling, number>;
  const { uf, numero } = lawyer.oab!;
  for (const ref of store.refsOfCases(store.casesOfOab(numero, uf))) {
    if (store.table.day[ref] > today) continue;
    const named = itemLawyers(store.resolve(ref)).find(({ lawyer: l }) => l.uf === uf && l.numero === numero);
    if (named) counts[named.lawyer.spelling]++;
  }
  return counts;
}

/** Demo-sized: a lawyer in up to this many cases pages through in a handful of requests. */
const DEMO_CASES = 40;

function exampleOab(store: DjenStore, today: number): DjenExamples['oab'] {
  const lawyers = store.lawyersByCases();
  const demoSized = lawyers.filter((l) => l.cases <= DEMO_CASES);
  for (const { lawyer } of [...demoSized.slice(0, 10), ...lawyers.slice(0, 10)]) {
    const spellings = spellingsOf(store, lawyer, today);
    if (spellings.plain > 0 && spellings.dotted > 0) {
      return {
        uf: lawyer.oab!.uf,
        numero: lawyer.oab!.numero,
        nome: lawyer.nome,
        comunicacoes: OAB_SPELLINGS.reduce((n, s) => n + spellings[s], 0),
        spellings,
      };
    }
  }
  return null;
}

/** The newest case with at least three visible communications. */
function exampleCase(store: DjenStore, today: number): number | null {
  const t = store.table;
  const tried = new Set<number>();
  for (let r = t.ranksUpTo(today) - 1; r >= 0 && tried.size < 500; r--) {
    const i = t.caseOf[t.posOf[r]];
    if (tried.has(i)) continue;
    tried.add(i);
    let visible = 0;
    for (let p = t.caseStart[i]; p < t.caseStart[i + 1]; p++) if (t.day[p] <= today) visible++;
    if (visible >= 3) return i;
  }
  return null;
}

export function djenExamples(store: DjenStore, today: number): DjenExamples {
  const t = store.table;
  const caseIndex = exampleCase(store, today);
  const c = caseIndex === null ? null : store.dataset.cases[caseIndex];
  let newest: number | null = null; // the newest Diário (meio D) communication
  for (let r = t.ranksUpTo(today) - 1; r >= 0 && newest === null; r--) if (flagKind(t.flags[t.posOf[r]]).meio === 'D') newest = t.posOf[r];
  return {
    oab: exampleOab(store, today),
    numeroProcesso: c?.numero ?? null,
    nomeParte: c?.partes.find((p) => p.person.tipoPessoa === 'FISICA')?.person.nome ?? c?.partes[0]?.person.nome ?? null,
    caderno: newest === null ? null : { siglaTribunal: store.dataset.cases[t.caseOf[newest]].court.sigla, data: isoDay(t.day[newest]), meio: 'D' },
  };
}
