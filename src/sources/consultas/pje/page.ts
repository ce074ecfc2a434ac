/**
 * What every PJe page reader shares (pje/parse.ts, pje/parties.ts): the errors a page raises, text as a
 * browser shows it, folded ids and labels, and a list's printed count checked against the rows read
 * (issue 52). A leaf: it imports no other reader of the system.
 */
import type { HTMLElement } from 'node-html-parser';
import type { Anomalies } from '../anomalies.ts';
import { oneLine } from '../html.ts';
import { MESSAGE_FAILURES, type CourtMessage } from '../messages.ts';
import type { ConsultaListCount } from '../record.ts';

/** The page is not what this step of the flow answers (or is cut short). The message never quotes page content. */
export class PjePageError extends Error {
  override name = 'PjePageError';
}

/** The court answered a message instead of results (rich-messages), classified by its words (messages.ts): never "not found" unless it says so. */
export class PjeMessageError extends PjePageError {
  override name = 'PjeMessageError';
  readonly kind: Exclude<CourtMessage, 'not_found'>;
  readonly text: string;
  constructor(kind: Exclude<CourtMessage, 'not_found'>, text: string) {
    super(`PJe search answer: ${MESSAGE_FAILURES[kind].why}`);
    this.kind = kind;
    this.text = text;
  }
}

/** Text as a browser shows it: entities decoded, runs of blanks (incl. &#160;) as one space, trimmed, mojibake undone. */
export function shown(node: HTMLElement | undefined | null): string {
  return oneLine(node?.text ?? '');
}

/** `N resultados encontrados` → N; null when no number is printed (PJe's empty answer). */
export function countOf(text: string): number | null {
  const m = /^(\d[\d.]*) resultados? encontrados?$/.exec(text);
  return m ? Number(m[1]!.replace(/\./g, '')) : null;
}

export const foldText = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
export const foldId = (id: string) => foldText(id).replace(/[^a-z]/g, '');

/** Elements whose children are all text (a panel's header, a label): their text is short to read, and the heading search stays linear. */
export const leafText = (el: HTMLElement) => (el.childNodes.every((c) => c.nodeType === 3) ? foldText(shown(el)).replace(/:$/, '').trim() : null);

/** A list's printed count (`N resultados encontrados`) and whether it has a pager shown: right after its table, else in its section. */
export function counterOf(section: HTMLElement, table: HTMLElement | null): { listados: number | null; pager: boolean } {
  let listados: number | null = null;
  let pager = false;
  const visible = (el: HTMLElement | null) => el !== null && !/display\s*:\s*none/i.test(el.getAttribute('style') ?? '');
  for (let sib = table?.nextElementSibling ?? null, n = 0; sib && n < 4; sib = sib.nextElementSibling, n++) {
    if (listados === null) listados = countOf(shown(sib));
    if (sib.classList.contains('rich-inslider') || sib.querySelector('.rich-inslider')) pager = true;
    if (sib.tagName === 'TABLE') break;
  }
  if (listados === null) {
    const span = section.querySelectorAll('span').find((el) => countOf(shown(el)) !== null);
    listados = span ? countOf(shown(span)) : null;
  }
  if (table?.querySelectorAll('.rich-datascr').some(visible) || section.querySelectorAll('.rich-datascr').some(visible)) pager = true;
  return { listados, pager };
}

/**
 * A list whose rows read are fewer than its printed count is never answered complete (issue 52): with a
 * pager the rest are on other pages this connector does not request (`limitado`); with none, the page
 * announces rows it does not carry (`limitado`, and an anomaly: the layout changed or the page was cut).
 */
export function checkedCount(listados: number | null, lidos: number, pager: boolean, anomalies: Anomalies): ConsultaListCount {
  if (listados === null || lidos >= listados) return { listados, lidos };
  if (!pager) anomalies.note('lista.contagem');
  return { listados, lidos, limitado: true };
}
