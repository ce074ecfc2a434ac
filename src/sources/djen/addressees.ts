/**
 * A case's parties and lawyers from its DJEN communications (issue 32), for the courts whose
 * consultation is closed or failed: each communication names its addressees with their pole
 * (`destinatarios`, `A`/`P`) and the lawyers it was sent to with their OAB (`destinatarioadvogados`).
 * Only what DJEN says: no document (null), no value (null), no role beyond "addressee". DJEN does not
 * say which addressee a lawyer represents, so a lawyer is placed only from a communication addressed
 * to one pole: beside that communication's addressees. A lawyer seen only on communications addressed
 * to both poles is not given to a side at random: it is listed with the case, pole unknown, as an
 * entry of its own (LAWYER_POLE, after the parties), so its name and OAB are kept.
 */
import { foldText } from '../../platform/matching/fold.ts';
import { personKindOfName } from '../../platform/identifiers/person-kind.ts';
import {
  DJEN_FONTE,
  LAWYER_POLE,
  type AddresseesSource,
  type CaseDetailsRecord,
  type LawyerRecord,
  type PartyRecord,
} from '../../platform/ports/case-details.ts';
import type { PublicationRecord, PublicationSource } from '../../platform/ports/publications.ts';
import { djenError } from './errors.ts';

/** Enough pages for any case's communications (100 a page); a case with more keeps the newest 500's addressees. */
const MAX_PAGES = 5;

const POLOS: Record<string, PartyRecord['polo']> = { A: 'ATIVO', P: 'PASSIVO' };
const POLO_ORDER = ['ATIVO', 'PASSIVO', 'OUTROS'];

/**
 * The addressees port over DJEN. `publications` gives the process's DJEN source at each call (tests put
 * a scripted one in the simulator's place for a while).
 */
export function djenAddressees(publications: () => PublicationSource): AddresseesSource {
  return {
    async fetchAddressees(numeroCnj, opts = {}) {
      const djen = publications();
      if (opts.now && djen.readyNow?.() === false)
        throw djenError('rate_limited', "DJEN's per-minute budget is spent for now: the case's addressees are asked in the background.");
      const found = await djen.search({ numeroCnj }, { signal: opts.signal, maxPages: MAX_PAGES });
      return addresseesOf(numeroCnj, found.items);
    },
  };
}

export function addresseesOf(numeroCnj: string, items: readonly PublicationRecord[]): CaseDetailsRecord | null {
  const parties = new Map<string, PartyRecord>();
  /** Lawyers of communications sent to both poles, in the order first seen. */
  const unplaced: LawyerRecord[] = [];
  // Oldest first: the parties in the order the case first named them (its distribution list).
  const ordered = items
    .filter((i) => i.ativo && i.numeroCnj === numeroCnj)
    .sort((a, b) => a.dataDisponibilizacao.localeCompare(b.dataDisponibilizacao) || a.id.localeCompare(b.id));
  for (const item of ordered) {
    const addressed: PartyRecord[] = [];
    for (const d of item.destinatarios) {
      const nome = d.nome.trim();
      if (nome === '') continue;
      const polo = POLOS[d.polo.trim().toUpperCase()] ?? 'OUTROS';
      const key = `${polo}|${foldText(nome)}`;
      let party = parties.get(key);
      if (!party) {
        party = { polo, tipo: 'Destinatário', nome, tipoPessoa: personKindOfName(nome), documento: null, advogados: [] };
        parties.set(key, party);
      }
      addressed.push(party);
    }
    if (new Set(addressed.map((p) => p.polo)).size !== 1) {
      for (const lawyer of item.advogados) addLawyer(unplaced, lawyer);
      continue;
    }
    for (const party of addressed) for (const lawyer of item.advogados) addLawyer(party.advogados, lawyer);
  }
  if (parties.size === 0) return null;
  const partes = [...parties.values()].sort((a, b) => POLO_ORDER.indexOf(a.polo) - POLO_ORDER.indexOf(b.polo));
  const placed = partes.flatMap((p) => p.advogados);
  for (const l of unplaced) {
    if (placed.some(sameLawyer(l))) continue;
    partes.push({ polo: LAWYER_POLE, tipo: 'Advogado', nome: l.nome, tipoPessoa: 'FISICA', documento: null, advogados: [l] });
  }
  return { numeroCnj, valorCausaCentavos: null, partes, documentos: [], fonte: DJEN_FONTE };
}

/** The same lawyer: by OAB when both have one, else by folded name. */
const sameLawyer = (l: LawyerRecord) => (a: LawyerRecord) =>
  a.oab && l.oab ? a.oab.uf === l.oab.uf && a.oab.numero === l.oab.numero : foldText(a.nome) === foldText(l.nome);

function addLawyer(list: LawyerRecord[], l: LawyerRecord): void {
  if (l.nome.trim() !== '' && !list.some(sameLawyer(l))) list.push({ nome: l.nome.trim(), oab: l.oab });
}
