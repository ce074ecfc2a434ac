/**
 * What a court's message box says, classified by the message itself on every system (issue 52 item 4):
 * PJe's `dl.rich-messages`, e-SAJ's `#mensagemRetorno`, TJDFT's `messages[]`. Courts answer "nothing
 * found", "refine your search", "try again later" and their errors with HTTP 200 and a sentence; the
 * sentence decides, never the status. A sentence none of these rules knows is `unknown`: never "not
 * found" (a case would silently vanish), always a failure whose reason quotes the message (quoted()).
 */

export type CourtMessage =
  /** No case has what was asked ("Sua pesquisa não encontrou nenhum processo disponível."). */
  | 'not_found'
  /** The search is too broad ("refine sua pesquisa"): the court failed to answer, never "nothing found". */
  | 'refine'
  /** Too many queries, try later: worth another try. */
  | 'busy'
  /** The court says it failed ("Ocorreu um erro", "serviço indisponível"). */
  | 'error'
  /** A sentence Tramita does not know. */
  | 'unknown';

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** Phrases per kind, folded (no accents, lower case); the first kind whose phrase the message holds wins. */
const PHRASES: [Exclude<CourtMessage, 'unknown'>, string[]][] = [
  [
    'not_found',
    [
      'nao existem informacoes disponiveis',
      'nao encontrou nenhum processo',
      'nenhum processo encontrado',
      'nenhum processo foi encontrado',
      'nenhum registro encontrado',
      'nenhum resultado encontrado',
      'processo nao encontrado',
      'nao foram encontrados processos',
      'nao foi encontrado nenhum processo',
      'nao ha processos',
    ],
  ],
  ['refine', ['refin', 'muitos processos', 'muitos resultados', 'mais especific', 'excede o limite de resultados']],
  ['busy', ['simultane', 'excesso de', 'tente novamente', 'tente mais tarde', 'aguarde', 'muitas requisicoes', 'muitas consultas']],
  ['error', ['ocorreu um erro', 'erro inesperado', 'erro interno', 'erro ao', 'falha ao', 'indisponivel', 'fora do ar', 'em manutencao']],
];

/** The kind of a court's message; null when the text is blank (no message at all). */
export function classifyMessage(text: string | null | undefined): CourtMessage | null {
  const folded = fold(text ?? '');
  if (folded === '') return null;
  for (const [kind, phrases] of PHRASES) if (phrases.some((p) => folded.includes(p))) return kind;
  return 'unknown';
}

/**
 * A court's message as a failure may quote it: digits shaped (`9`: no CPF, number or date of anyone),
 * at most 160 characters. Court messages are the system's own sentences; a party's name is not expected
 * in one, and a number that could identify one never survives.
 */
export function quoted(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim().replace(/\d/g, '9');
  return one.length > 160 ? `${one.slice(0, 157)}...` : one;
}

/** How each message fails a consultation: `busy` is worth another try later; the rest are the court's failure, never "nothing found". */
export const MESSAGE_FAILURES: Record<Exclude<CourtMessage, 'not_found'>, { failure: 'rate_limited' | 'unavailable'; why: string }> = {
  refine: { failure: 'unavailable', why: 'the court asked to refine the search (too many results)' },
  busy: { failure: 'rate_limited', why: 'the court refused the query (too many simultaneous queries; try later)' },
  error: { failure: 'unavailable', why: 'the court answered an error message instead of results' },
  unknown: { failure: 'unavailable', why: 'the court answered a message Tramita does not know instead of results' },
};

/** The failure's reason in words: an unknown message is quoted (quoted(): digits shaped), a known one named. */
export function messageReason(kind: Exclude<CourtMessage, 'not_found'>, text: string): string {
  return kind === 'unknown' ? `${MESSAGE_FAILURES.unknown.why}: "${quoted(text)}"` : MESSAGE_FAILURES[kind].why;
}
