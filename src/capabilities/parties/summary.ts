/** The numbers of a party summary, computed from stored cases. */
import { toBrl } from '../../platform/billing/prices.ts';
import { foldText } from '../../platform/text.ts';
import { isParty, type PartyRecord } from '../../platform/ports/case-details.ts';
import { caseSummary, type StoredCase } from '../processes/parts.ts';

export const SUMMARY_MAX_CASES = 500;

type Who = { documento: string } | { nome: string };

function isTheParty(p: PartyRecord, who: Who): boolean {
  if (!isParty(p)) return false;
  if ('documento' in who) return p.documento === who.documento;
  const words = foldText(who.nome).split(' ');
  const name = ` ${foldText(p.nome)} `;
  return words.every((w) => name.includes(` ${w}`));
}

function counts(values: string[]) {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m].map(([chave, quantidade]) => ({ chave, quantidade })).sort((a, b) => b.quantidade - a.quantidade || a.chave.localeCompare(b.chave));
}

export function summarize(cases: StoredCase[], who: Who) {
  const roles = cases.flatMap((c) => (c.partes ?? []).filter((p) => isTheParty(p, who)));
  const dates = cases
    .map((c) => c.row.data_ajuizamento)
    .filter((d): d is string => d !== null)
    .sort();
  const values = cases.map((c) => c.row.valor_causa_centavos).filter((v): v is number => v !== null);
  return {
    quantidadeProcessos: cases.length,
    nomes: [...new Set(roles.map((p) => p.nome))].sort(),
    porTribunal: counts(cases.map((c) => c.row.tribunal)),
    porClasse: counts(cases.map((c) => caseSummary(c).classe?.nome ?? 'Sem classe')),
    porPolo: counts(cases.map((c) => (c.partes ?? []).find((p) => isTheParty(p, who))?.polo ?? 'DESCONHECIDO')),
    porAno: counts(dates.map((d) => d.slice(0, 4))),
    primeiroAjuizamento: dates[0] ?? null,
    ultimoAjuizamento: dates[dates.length - 1] ?? null,
    valorCausaTotal: values.length ? toBrl(values.reduce((a, b) => a + b, 0)) : null,
    processosConsiderados: cases.length,
  };
}
