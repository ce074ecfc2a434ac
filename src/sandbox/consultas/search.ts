/**
 * What the simulated courts' searches find (issue 32): the court's visible fictitious cases where a
 * party has the document, a party's name has every word of the name (accents and case aside), or a
 * party's lawyer has the OAB; newest first, as the data set orders them. The e-SAJ and PJe simulators
 * wrap the result in their own pages.
 */
import type { SandboxDataset } from '../data/dataset.ts';
import type { SandboxCase } from '../data/model.ts';

export type SandboxSearch = { documento: string } | { nome: string } | { oab: { uf: string; numero: string } };

export function courtCasesBy(dataset: SandboxDataset, accepts: (c: SandboxCase) => boolean, q: SandboxSearch, now: number): SandboxCase[] {
  if ('documento' in q) return dataset.casesByDocument(q.documento, now).filter(accepts);
  if ('nome' in q) return dataset.casesByName(q.nome, now).filter(accepts);
  const { uf, numero } = q.oab;
  const same = (o: { uf: string; numero: string } | null) => o !== null && o.uf === uf && o.numero.replace(/^0+/, '') === numero.replace(/^0+/, '');
  return dataset.cases
    .filter((c) => accepts(c) && c.partes.some((p) => p.advogados.some((a) => same(a.oab))) && dataset.visibleCase(c.numero, now) === c)
    .sort((a, b) => b.filedAt - a.filedAt);
}
