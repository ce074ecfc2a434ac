/** A party's cases as answered (spec §4.2): each a process object, as a cover is (conventions §4.7), with the searched party's role. */
import { caseAnswer, type StoredCase } from '../processes/parts.ts';

/** One case of `GET /v1/processos?cpf_cnpj=`, with the role of the party whose document was searched. */
export function partyCaseView(c: StoredCase, documento: string) {
  const party = c.partes?.find((p) => p.documento === documento);
  return { ...caseAnswer(c), envolvimento: party ? { polo: party.polo, tipo: party.tipo || null, nome: party.nome } : null };
}

/** The searched party as the page's cases name it (`data.envolvido`), null when none of them does. */
export function envolvidoView(cases: StoredCase[], documento: string, quantidadeProcessos: number) {
  const named = cases.flatMap((c) => c.partes ?? []).find((p) => p.documento === documento);
  return named ? { nome: named.nome, tipoPessoa: named.tipoPessoa, quantidadeProcessos } : null;
}
