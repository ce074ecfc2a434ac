/**
 * A court's page reduced to its structure (issue 44 item 6), to hand a failing page to a maintainer
 * without the people in it: tags, attribute names, `id` and `class` values are kept; every text node,
 * every other attribute value, every script, style and comment is replaced by its shape (a letter → `x`,
 * a digit → `9`; blanks and punctuation kept), so `FULANO DE TAL - CPF: 000.000.001-91 (AUTOR)` becomes
 * `xxxxxx xx xxx - xxx: 999.999.999-99 (xxxxx)`. An `id` or `class` that holds more than a name's
 * characters is shaped too. A page the scan cannot take apart (a tag, quote, comment or script left
 * open) is refused: SkeletonError, nothing saved. One pass, linear in the page.
 */
export class SkeletonError extends Error {
  override name = 'SkeletonError';
}

/** Letters → x, digits → 9, everything else (blanks, punctuation, symbols) as it is. */
export function shapeOf(text: string): string {
  let out = '';
  for (const ch of text) out += /\p{L}|\p{M}/u.test(ch) ? 'x' : /\p{N}/u.test(ch) ? '9' : ch;
  return out;
}

/** An id or class value that is only a name (`fPP:processosTable:tb`; classes `rich-table-row btn`) is kept; anything else is shaped. */
const ID_LIKE = /^[A-Za-z0-9_:.-]*$/;
const CLASSES_LIKE = /^[A-Za-z0-9_:.\- ]*$/;
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

export function skeletonOf(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      out += shapeOf(html.slice(i));
      break;
    }
    out += shapeOf(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      if (end === -1) throw new SkeletonError('a comment is left open');
      out += `<!--${shapeOf(html.slice(lt + 4, end))}-->`;
      i = end + 3;
      continue;
    }
    const { text, end, name, closing } = tag(html, lt);
    out += text;
    i = end;
    if (!closing && RAW_TEXT.has(name)) {
      const close = lower.indexOf(`</${name}`, i);
      if (close === -1) throw new SkeletonError(`a <${name}> is left open`);
      out += shapeOf(html.slice(i, close));
      i = close;
    }
  }
  return out;
}

const ATTR_NAME = /^[A-Za-z_:@][\w:.@-]*$/;
const isBlank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** One tag from `<` to its `>`: its name and attribute names kept, values shaped unless they are id/class names. */
function tag(html: string, lt: number): { text: string; end: number; name: string; closing: boolean } {
  const n = html.length;
  let i = lt + 1;
  const closing = html[i] === '/';
  if (closing) i++;
  const nameStart = i;
  while (i < n && /[A-Za-z0-9:!?_-]/.test(html[i]!)) i++;
  const name = html.slice(nameStart, i).toLowerCase();
  let text = `<${closing ? '/' : ''}${html.slice(nameStart, i)}`;
  while (i < n && html[i] !== '>') {
    if (isBlank(html[i]) || html[i] === '/') {
      text += html[i];
      i++;
      continue;
    }
    const start = i;
    while (i < n && !isBlank(html[i]) && html[i] !== '=' && html[i] !== '>' && html[i] !== '/') i++;
    const attr = html.slice(start, i);
    text += ATTR_NAME.test(attr) ? attr : shapeOf(attr);
    while (isBlank(html[i])) text += html[i++];
    if (html[i] !== '=') continue;
    text += '=';
    i++;
    while (isBlank(html[i])) text += html[i++];
    const quote = html[i];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, i + 1);
      if (close === -1) throw new SkeletonError('an attribute value is left open');
      text += `${quote}${value(attr, html.slice(i + 1, close))}${quote}`;
      i = close + 1;
    } else {
      const from = i;
      while (i < n && !isBlank(html[i]) && html[i] !== '>') i++;
      text += value(attr, html.slice(from, i));
    }
  }
  if (i >= n) throw new SkeletonError('a tag is left open');
  return { text: `${text}>`, end: i + 1, name, closing };
}

function value(attr: string, v: string): string {
  const name = attr.toLowerCase();
  return (name === 'id' && ID_LIKE.test(v)) || (name === 'class' && CLASSES_LIKE.test(v)) ? v : shapeOf(v);
}
