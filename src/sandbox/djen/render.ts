/**
 * Renders a Communication as DJEN serves it: the item JSON (djen-comunicacao-sample.json, field by
 * field and in the same key order) and its `texto` in the court's style:
 * - eproc: the HTML page with the header table ("ADVOGADO(A) : NOME (OAB RS062492)" rows) and body;
 * - pje: simpler HTML paragraphs ("ADVOGADO: NOME - OAB SP123456");
 * - plain: TJRJ-style plain text with "\n\r" separators (and `link: null`).
 * Names are printed upper case; `nomeClasse` in DJEN's odd casing ("APELAçãO CíVEL").
 */
import { courtBySigla } from '../../platform/courts/table.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { hash32 } from '../data/prng.ts';
import { foldText } from '../data/text.ts';
import { brDay, isoDay, localStamp } from './dates.ts';
import { lawyersOf, type Communication, type DjenItem, type LawyerRef } from './model.ts';
import { spellOab } from './oab.ts';

export const MEIO_COMPLETO = { D: 'Diário de Justiça Eletrônico Nacional', E: 'Plataforma Nacional de Editais' } as const;
const NOTICE = 'Comunicação fictícia gerada pelo simulador do Tramita (sandbox): nomes, números e fatos são inventados.';
const EPROC_HEAD =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><html lang="pt-br"><head><meta http-equiv="Pragma" ' +
  'content="no-cache" /><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"/></head><style>body{ padding: 10px; ' +
  'font-family: Times New Roman; font-size:13pt }; #divHeader{ line-height:25px; margin-bottom:30px }; #divBody{ max-width:90%; ' +
  'text-align:justify }</style><body>';

/** Upper case for ASCII letters only, as DJEN prints class names: "Apelação Cível" → "APELAçãO CíVEL". */
export function djenClassCase(text: string): string {
  return text.replace(/[a-z]+/g, (s) => s.toUpperCase());
}

/** A UTF-16 code unit beyond Latin-1 (the regex has no `u` flag). */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/** Latin-1 letters with their unaccented form: folding them by table is ~5× faster than NFD on long texts. */
const LATIN1_FOLD = new Map([...'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ'].map((ch) => [ch, foldText(ch)]));

/** foldText for Portuguese text: the same result on Latin-1 letters, falling back to NFD beyond them. */
function fold(text: string): string {
  const lower = text.toLowerCase().replace(/[à-ÿ]/g, (ch) => LATIN1_FOLD.get(ch) ?? ch);
  return BEYOND_LATIN1.test(lower) ? foldText(lower) : lower;
}

/** " fulana de teste souza ": folded, one space between words and around them, so a word matches as ` ${word} `. */
export function paddedWords(text: string): string {
  return ` ${fold(text)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

/** Every word (already folded) is a word of `haystack` (from paddedWords). */
export function hasWords(haystack: string, words: readonly string[]): boolean {
  return words.every((w) => haystack.includes(` ${w} `));
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeHtml(text: string): string {
  return /[&<>"]/.test(text) ? text.replace(/[&<>"]/g, (ch) => ENTITIES[ch]) : text;
}

/** Registration as the act's header prints it: "RS062492". */
const headerOab = (l: LawyerRef) => (l.numero === null ? null : `${l.uf}${l.numero.padStart(6, '0')}`);

function title(c: Communication): string {
  return (c.tipoComunicacao === 'Intimação' ? c.tipoDocumento : c.tipoComunicacao).toUpperCase();
}

/** Header rows [label, value]: relator, each party and its lawyers, then lawyers named without a party. */
function headerRows(c: Communication, lawyer: (l: LawyerRef) => string): [string, string][] {
  const rows: [string, string][] = c.relator ? [['RELATOR', c.relator]] : [];
  for (const d of c.destinatarios) {
    rows.push([d.tipo, d.nome]);
    for (const l of d.advogados) rows.push(['ADVOGADO(A)', lawyer(l)]);
  }
  for (const l of c.outrosAdvogados) rows.push(['ADVOGADO(A)', lawyer(l)]);
  return rows;
}

function eprocTexto(c: Communication): string {
  const lawyer = (l: LawyerRef) => (headerOab(l) ? `${l.nome} (OAB ${headerOab(l)})` : l.nome);
  const rows = headerRows(c, lawyer)
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>: ${escapeHtml(v)}</td></tr>`)
    .join('');
  const head = `${escapeHtml(c.classe.nome.toUpperCase())} Nº ${formatCnj(c.numero)}/${c.uf}`;
  const body = c.corpo.map((p) => `<p>${escapeHtml(p)}</p>`).join('');
  return (
    `${EPROC_HEAD}<div id="divHeader"><b>${head}<table border="0">${rows}</table></b></div><div ` +
    `id="divBody"><center><p>${escapeHtml(title(c))}</p></center><br/>${body}<p><i>${NOTICE}</i></p></div></body></html>`
  );
}

function pjeTexto(c: Communication): string {
  const lawyer = (l: LawyerRef) => (headerOab(l) ? `${l.nome} - OAB ${headerOab(l)}` : l.nome);
  const lines = [
    'PODER JUDICIÁRIO',
    courtBySigla(c.tribunal)?.nome.toUpperCase() ?? c.tribunal,
    c.orgao.nome,
    `PROCESSO: ${formatCnj(c.numero)}`,
    `CLASSE: ${c.classe.nome.toUpperCase()}`,
    ...headerRows(c, lawyer).map(([k, v]) => `${k.replace('(A)', '')}: ${v}`),
  ];
  const head = lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('');
  const body = c.corpo.map((p) => `<p align="justify">${escapeHtml(p)}</p>`).join('');
  return `${head}<br/><p align="center"><b>${escapeHtml(title(c))}</b></p>${body}<p><i>${NOTICE}</i></p>`;
}

function plainTexto(c: Communication): string {
  const lawyer = (l: LawyerRef) => (l.numero === null ? l.nome : `${l.nome} (OAB/${l.uf}-${l.numero})`);
  const lines = [
    `Processo: ${formatCnj(c.numero)}`,
    `Classe: ${c.classe.nome}`,
    `Órgão: ${c.orgao.nome}`,
    ...headerRows(c, lawyer).map(([k, v]) => `${k === 'ADVOGADO(A)' ? 'Advogado(a)' : k}: ${v}`),
    '',
    title(c),
    ...c.corpo,
    '',
    NOTICE,
  ];
  return lines.join('\n\r');
}

export function renderTexto(c: Communication): string {
  if (c.textoLivre !== null) return c.textoLivre;
  return c.style === 'eproc' ? eprocTexto(c) : c.style === 'pje' ? pjeTexto(c) : plainTexto(c);
}

const FOLDING = 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ';
const LETTER = `a-z0-9${FOLDING}`;
/** The lower-case letters that fold into each ASCII letter. */
const VARIANTS = new Map<string, string>();
for (const ch of FOLDING) VARIANTS.set(foldText(ch), (VARIANTS.get(foldText(ch)) ?? foldText(ch)) + ch);

/** A folded word as a regex over lower-case unfolded text: "acao" matches "ação" as a whole word. */
function wordPattern(word: string): RegExp {
  const body = [...word].map((ch) => (VARIANTS.has(ch) ? `[${VARIANTS.get(ch)}]` : ch)).join('');
  return new RegExp(`(?<![${LETTER}])${body}(?![${LETTER}])`);
}

/**
 * The matcher of a `texto` query: every folded word must be a word of the texto (tags, entities
 * and the eproc page's constant CSS head are not content). Scans run it over tens of thousands of
 * items, so it matches the unfolded text with accent-tolerant patterns instead of folding each text.
 */
export function textoMatcher(words: readonly string[]): (c: Communication) => boolean {
  const patterns = words.map(wordPattern);
  return (c) => {
    const texto = renderTexto(c);
    const content = (c.textoLivre === null && c.style === 'eproc' ? texto.slice(EPROC_HEAD.length) : texto).replace(/<[^>]*>|&[a-z]+;/g, ' ');
    if (BEYOND_LATIN1.test(content)) return hasWords(paddedWords(content), words); // beyond Latin-1: fold it
    const lower = content.toLowerCase();
    return patterns.every((p) => p.test(lower));
  };
}

/** Stable per registration, like DJEN's own lawyer ids. */
function advogadoId(l: LawyerRef): number {
  return 10_000 + (hash32(`${l.uf}${l.numero}`) % 9_000_000);
}

/** The lawyers that appear in `destinatarioadvogados` (those with a registration), with `numero_oab` as printed. */
export function itemLawyers(c: Communication): { lawyer: LawyerRef; numeroOab: string }[] {
  return lawyersOf(c)
    .filter((l) => l.numero !== null)
    .map((lawyer) => ({ lawyer, numeroOab: spellOab(lawyer.uf, lawyer.numero!, lawyer.spelling) }));
}

export function renderItem(c: Communication): DjenItem {
  const created = localStamp(c.createdAt);
  return {
    id: c.id,
    data_disponibilizacao: isoDay(c.day),
    siglaTribunal: c.tribunal,
    tipoComunicacao: c.tipoComunicacao,
    nomeOrgao: c.orgao.nome,
    idOrgao: c.orgao.id,
    texto: renderTexto(c),
    numero_processo: c.numero,
    meio: c.meio,
    link: c.link,
    tipoDocumento: c.tipoDocumento,
    nomeClasse: djenClassCase(c.classe.nome),
    codigoClasse: String(c.classe.codigo),
    numeroComunicacao: c.numeroComunicacao,
    ativo: c.cancelamento === null,
    hash: c.hash,
    status: 'P',
    motivo_cancelamento: c.cancelamento?.motivo ?? null,
    data_cancelamento: c.cancelamento ? localStamp(c.cancelamento.at) : null,
    datadisponibilizacao: brDay(c.day),
    meiocompleto: MEIO_COMPLETO[c.meio],
    numeroprocessocommascara: formatCnj(c.numero),
    destinatarios: c.destinatarios.map((d) => ({ nome: d.nome, comunicacao_id: c.id, polo: d.polo })),
    destinatarioadvogados: itemLawyers(c).map(({ lawyer, numeroOab }, i) => ({
      id: c.id * 16 + i,
      comunicacao_id: c.id,
      advogado_id: advogadoId(lawyer),
      created_at: created,
      updated_at: created,
      advogado: { id: advogadoId(lawyer), nome: lawyer.nome, numero_oab: numeroOab, uf_oab: lawyer.uf },
    })),
  };
}
