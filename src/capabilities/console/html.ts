/**
 * The console's HTML: a tagged template that escapes every interpolated value (only `Html` made by
 * this module passes through as markup), the page layout, and the few components every page uses.
 * Server-rendered, no script needed to read or change anything (console.js only adds the copy
 * buttons and confirmations), every asset served by Tramita.
 */
import { brasiliaDateTime, formatDateBr } from '../../platform/format.ts';

export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

type Part = Html | string | number | boolean | null | undefined | Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Markup this module's callers built themselves (an SVG chart): never user input. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** `dd/mm/aaaa HH:MM`, Brasília time; a dash for none. */
export const when = (isoText: string | null | undefined) => (isoText ? `${formatDateBr(isoText)} ${brasiliaDateTime(isoText).slice(11, 16)}` : '—');

export interface PageContext {
  title: string;
  /** The nav entry to mark as current. */
  section?: string;
  email?: string;
  accountName?: string;
  csrf?: string;
  /** A message shown at the top (after a change). */
  flash?: { kind: 'ok' | 'erro'; text: string } | null;
}

const NAV: [string, string][] = [
  ['visao-geral', 'Visão geral'],
  ['chaves', 'Chaves de API'],
  ['webhook', 'Webhook'],
  ['entregas', 'Entregas'],
  ['monitoramentos', 'Monitoramentos'],
  ['extrato', 'Extrato'],
  ['auditoria', 'Auditoria'],
];

function navItem(slug: string, label: string, section: string | undefined): Html {
  const current = slug === section ? trusted(' aria-current="page"') : '';
  return html`<li><a href="/console/${slug}"${current}>${label}</a></li>`;
}

export function layout(ctx: PageContext, body: Html): Html {
  const signedIn = ctx.email !== undefined;
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${ctx.title} · Tramita</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<a class="pular" href="#conteudo">Pular para o conteúdo</a>
<header class="topo">
  <span class="marca">Tramita</span>
  ${
    signedIn
      ? html`<span class="conta">${ctx.accountName} · ${ctx.email}</span>
  <form method="post" action="/console/sair" class="sair">${csrfField(ctx.csrf)}<button type="submit">Sair</button></form>`
      : ''
  }
</header>
${signedIn ? html`<nav aria-label="Seções"><ul>${NAV.map(([slug, label]) => navItem(slug, label, ctx.section))}</ul></nav>` : ''}
<main id="conteudo">
<h1>${ctx.title}</h1>
${ctx.flash ? html`<p class="aviso ${ctx.flash.kind}" role="${ctx.flash.kind === 'erro' ? 'alert' : 'status'}">${ctx.flash.text}</p>` : ''}
${body}
</main>
</body>
</html>`;
}

export function csrfField(token: string | undefined): Html {
  return token ? html`<input type="hidden" name="_csrf" value="${token}">` : html``;
}

/** A table with a caption (read by screen readers), headers and rows; `empty` when there is no row. */
export function table(caption: string, headers: string[], rows: Part[][], empty = 'Nada por aqui ainda.'): Html {
  if (rows.length === 0) return html`<p class="vazio">${empty}</p>`;
  return html`<div class="tabela"><table>
<caption>${caption}</caption>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody>
</table></div>`;
}

/** A secret shown once, selectable, with a copy button (console.js). */
const COPY_BUTTON = trusted('<button type="button" data-copiar="valor-uma-vez">Copiar</button>');

export function shownOnce(label: string, value: string, warning: string): Html {
  return html`<section class="uma-vez" aria-labelledby="uma-vez-titulo">
<h2 id="uma-vez-titulo">${label}</h2>
<p>${warning}</p>
<div class="copiar"><input id="valor-uma-vez" readonly value="${value}" aria-label="${label}">${COPY_BUTTON}</div>
</section>`;
}
