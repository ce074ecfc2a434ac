/**
 * The search form of PJe's classic *consulta pública* (`ConsultaPublica/listView.seam`, form `fPP`,
 * reference/upstream/real/README.md §1 "Request flow"), and the A4J AJAX request its own script sends:
 * the button runs `executarReCaptcha()`, whose captcha branch is compiled out (`if (false)`), then
 * `executarPesquisa()`, defined in a `<script id="fPP:j_idNNN">` whose id is generated per deployment
 * and read from the page. The POST carries every field of the form with its current value (radios
 * omitted, as the working connectors send it), the CNJ number masked as the input's mask, plus
 * `AJAXREQUEST=_viewRoot`, `<script id>=<script id>` and `AJAX:EVENTS_COUNT=1`.
 */
import { parse } from 'node-html-parser';
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
  return { action, fields, numberField, searchScriptId: script.id };
}

/** The form-encoded body of the search POST for one CNJ number (masked `NNNNNNN-DD.AAAA.J.TR.OOOO`). */
export function pjeSearchBody(form: PjeSearchForm, cnjMasked: string): string {
  const body = new URLSearchParams();
  body.append('AJAXREQUEST', '_viewRoot');
  for (const [name, value] of form.fields) body.append(name, name === form.numberField ? cnjMasked : value);
  body.append(form.searchScriptId, form.searchScriptId);
  body.append('AJAX:EVENTS_COUNT', '1');
  return body.toString();
}
