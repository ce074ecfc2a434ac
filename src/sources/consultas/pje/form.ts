/**
 * The search form of PJe's classic *consulta pública* (`ConsultaPublica/listView.seam`, form `fPP`,
 * reference/upstream/real/README.md §1 "Request flow"), and the A4J AJAX request its own script sends:
 * the button runs `executarReCaptcha()`, whose captcha branch is compiled out (`if (false)`), then
 * `executarPesquisa()`, defined in a `<script id="fPP:j_idNNN">` whose id is generated per deployment
 * and read from the page. The POST carries every field of the form with its current value (radios
 * omitted, as the working connectors send it), the CNJ number masked as the input's mask, plus
 * `AJAXREQUEST=_viewRoot`, `<script id>=<script id>` and `AJAX:EVENTS_COUNT=1`.
 *
 * The same form searches by a party's document (`fPP:dpDec:documentoParte`, masked `999.999.999-99` or
 * the CNPJ's mask) and by OAB (`fPP:Decoration:numeroOAB`, the letter input right after it, and the
 * select `fPP:Decoration:estadoComboOAB` whose options' values are indexes, `0` = AC): issue 32.
 * A deployment whose form lacks a field simply cannot search by it.
 */
import { parse } from 'node-html-parser';
import { formatCnpj, formatCpf } from '../../../platform/identifiers/cpf-cnpj.ts';
import type { CourtSearchQuery } from '../../../platform/ports/case-details.ts';
import { PjePageError } from './parse.ts';

export interface PjeSearchForm {
  /** The form's action (path, with `;jsessionid=…` when the server put one there). */
  action: string;
  /** Every field in page order: [name, value]. */
  fields: [string, string][];
  /** The number field's name (`fPP:numProcesso-inputNumeroProcessoDecoration:numProcesso-inputNumeroProcesso`). */
  numberField: string;
  /** The id of the script that defines executarPesquisa (`fPP:j_id252` at TJMA). */
  searchScriptId: string;
  /** The party-document field (`fPP:dpDec:documentoParte`), when the form has one. */
  documentField: string | null;
  /** The OAB fields, when the form has them: number, letter, and the UF select with its option value per UF. */
  oab: { numberField: string; letterField: string | null; ufField: string; ufValues: Record<string, string> } | null;
}

const SKIPPED_TYPES = new Set(['radio', 'checkbox', 'button', 'submit', 'image', 'reset', 'file']);

/** Reads form `fPP` of the listView page; throws PjePageError when the page is not that form. */
export function parsePjeSearchForm(html: string): PjeSearchForm {
  const root = parse(html);
  const form = root.querySelector('form#fPP');
  const action = form?.getAttribute('action');
  if (!form || !action) throw new PjePageError('PJe listView: no search form (form#fPP)');
  const fields: [string, string][] = [];
  for (const el of form.querySelectorAll('input, select, textarea')) {
    const name = el.getAttribute('name');
    if (!name) continue;
    const tag = el.tagName.toLowerCase();
    if (tag === 'input' && SKIPPED_TYPES.has((el.getAttribute('type') ?? 'text').toLowerCase())) continue;
    if (tag === 'select') {
      const option = el.querySelector('option[selected]') ?? el.querySelector('option');
      fields.push([name, option?.getAttribute('value') ?? option?.text ?? '']);
    } else fields.push([name, tag === 'textarea' ? el.text : (el.getAttribute('value') ?? '')]);
  }
  const numberField = fields.find(([name]) => name.endsWith('numProcesso-inputNumeroProcesso'))?.[0];
  if (!numberField) throw new PjePageError('PJe listView: no case-number field');
  if (!fields.some(([name]) => name === 'javax.faces.ViewState')) throw new PjePageError('PJe listView: no javax.faces.ViewState');
  // `executarPesquisa=function(){A4J.AJAX.Submit('fPP',…)}`; some courts name it executarPesquisaReCaptcha [recon].
  const script = root.querySelectorAll('script[id^="fPP:"]').find((s) => /executarPesquisa\w*\s*=\s*function/.test(s.text));
  if (!script) throw new PjePageError('PJe listView: no script defining executarPesquisa');
  return {
    action,
    fields,
    numberField,
    searchScriptId: script.id,
    documentField: fields.find(([name]) => name.endsWith(':documentoParte'))?.[0] ?? null,
    oab: oabFields(form, fields),
  };
}

function oabFields(form: ReturnType<typeof parse>, fields: [string, string][]): PjeSearchForm['oab'] {
  const at = fields.findIndex(([name]) => name.endsWith(':numeroOAB'));
  const select = form.querySelector('select[name$=":estadoComboOAB"]');
  if (at < 0 || !select) return null;
  const ufValues: Record<string, string> = {};
  for (const option of select.querySelectorAll('option')) {
    const uf = option.text.trim();
    if (/^[A-Z]{2}$/.test(uf) && uf !== 'UF') ufValues[uf] = option.getAttribute('value') ?? uf;
  }
  // The letter input follows the number in the same decoration (`fPP:Decoration:j_id231`), its id generated per deployment.
  const next = fields[at + 1]?.[0];
  const letterField =
    next && next !== select.getAttribute('name') && next.startsWith(fields[at]![0].slice(0, fields[at]![0].lastIndexOf(':') + 1)) ? next : null;
  return { numberField: fields[at]![0], letterField, ufField: select.getAttribute('name')!, ufValues };
}

/**
 * The form-encoded body of the search POST: the CNJ number (masked `NNNNNNN-DD.AAAA.J.TR.OOOO`) when
 * given a string, else the fields given (a document, an OAB: pjeSearchFields) over the form's own values.
 */
export function pjeSearchBody(form: PjeSearchForm, search: string | Record<string, string>): string {
  const values = typeof search === 'string' ? { [form.numberField]: search } : search;
  const body = new URLSearchParams();
  body.append('AJAXREQUEST', '_viewRoot');
  for (const [name, value] of form.fields) body.append(name, values[name] ?? value);
  body.append(form.searchScriptId, form.searchScriptId);
  body.append('AJAX:EVENTS_COUNT', '1');
  return body.toString();
}

/**
 * The fields of a search by document or OAB, or null when this deployment's form has none for it.
 * The document goes masked as the input's mask types it (CPF `000.000.000-00`, CNPJ `00.000.000/0000-00`).
 */
export function pjeSearchFields(form: PjeSearchForm, q: CourtSearchQuery): Record<string, string> | null {
  if (q.kind === 'documento') {
    if (!form.documentField) return null;
    return { [form.documentField]: q.documento.length === 11 ? formatCpf(q.documento) : formatCnpj(q.documento) };
  }
  if (q.kind === 'oab') {
    const uf = form.oab?.ufValues[q.oab.uf];
    if (!form.oab || uf === undefined) return null;
    return { [form.oab.numberField]: q.oab.numero, ...(form.oab.letterField ? { [form.oab.letterField]: q.oab.suffix ?? '' } : {}), [form.oab.ufField]: uf };
  }
  return null;
}
