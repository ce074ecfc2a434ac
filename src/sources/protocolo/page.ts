/**
 * Reads Protocolo Integrado's detail page (`documento/detalhes_documento.jsf?protocolo=<17 digits>`,
 * a JSF page: reference/upstream/nup.md §3). Its exact markup was never captured from Brazil, so
 * the reader leans on what any rendering of it must have rather than on ids or classes:
 * - fields are table rows of a label cell and a value cell (`Assunto:`, `Interessado(s):`…), matched
 *   by their folded label;
 * - tramitações are the rows whose first cell is a Brasília date-time, their columns named by the
 *   header row above them (Data, Operação, Unidade de Origem, Unidade de Destino), in that order when
 *   there is none;
 * - a page with a captcha widget is a `captcha` failure (never solved), and a page that says the
 *   protocol was not found, with no field, is a definitive "not found".
 * Anything else without the protocol's own number, or cut short, is `malformed`: never read as "not found".
 */
import { createHash } from 'node:crypto';
import { decodeHtmlEntities } from '../../platform/matching/fold.ts';
import { instantOfBr, isoDayOfBr } from '../../platform/format.ts';
import { foldText } from '../../platform/text.ts';
import type { AdministrativeMovement, AdministrativeProcessRecord } from '../../platform/ports/administrative.ts';

export type DetailPage =
  | { kind: 'found'; process: AdministrativeProcessRecord }
  | { kind: 'not_found' }
  | { kind: 'captcha' }
  | { kind: 'unreadable'; why: string };

const CAPTCHA = /g-recaptcha|h-captcha|hcaptcha|captcha/i;
const NOT_FOUND = /nenhum (documento|processo|protocolo|registro) (foi )?encontrad|nao (foi )?encontrad|inexistente/;

/** A cell's text: line breaks and list items kept as newlines, tags dropped, entities decoded. */
function cellText(html: string): string {
  return decodeHtmlEntities(html.replace(/<(br|\/li|\/p|\/div)\b[^>]*>/gi, '\n').replace(/<[^>]*>/g, ' '))
    .split('\n')
    .map((l) => l.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((l) => l !== '')
    .join('\n');
}

function rowsOf(html: string): string[][] {
  const rows: string[][] = [];
  for (const row of html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)) {
    rows.push([...row[1].matchAll(/<t([hd])\b[^>]*>([\s\S]*?)<\/t\1>/gi)].map((c) => cellText(c[2])));
  }
  return rows;
}

/** The field a label names (folded, colon and plural marks dropped), or null. */
function fieldOf(label: string): keyof Fields | null {
  const l = foldText(label.replace(/\(s\)|\(es\)/gi, ''));
  if (/^(numero (do )?)?(protocolo|nup|processo|documento)$/.test(l) || l === 'numero') return 'numero';
  if (/^assunto/.test(l) || l === 'resumo') return 'assunto';
  if (/^interessad/.test(l)) return 'interessados';
  if (/^(orgao|unidade) (de )?origem|^orgao$|^orgao responsavel/.test(l)) return 'orgao';
  if (/^data (de |da )?(autuacao|abertura|cadastro|producao)/.test(l)) return 'data';
  if (/^(especie|tipo)/.test(l)) return 'tipo';
  return null;
}

interface Fields {
  numero: string;
  assunto: string;
  interessados: string;
  orgao: string;
  data: string;
  tipo: string;
}

type Column = 'data' | 'operacao' | 'origem' | 'destino';

function columnsOf(header: string[]): Column[] | null {
  const cols = header.map((h): Column | null => {
    const l = foldText(h);
    if (/^data/.test(l)) return 'data';
    if (/origem/.test(l)) return 'origem';
    if (/destino/.test(l)) return 'destino';
    if (/operacao|acao|andamento|situacao|descricao|tramite/.test(l)) return 'operacao';
    return null;
  });
  return cols.includes('data') && cols.includes('operacao') ? cols.map((c) => c ?? 'operacao') : null;
}

const DEFAULT_COLUMNS: Column[] = ['data', 'operacao', 'origem', 'destino'];

function movementsOf(rows: string[][]): AdministrativeMovement[] {
  const seen = new Map<string, number>();
  const out: AdministrativeMovement[] = [];
  let columns = DEFAULT_COLUMNS;
  for (const row of rows) {
    const named = columnsOf(row);
    if (named) {
      columns = named;
      continue;
    }
    const at = columns.indexOf('data');
    const dataHora = row.length >= 2 ? instantOfBr(row[at]) : null;
    if (!dataHora) continue;
    const pick = (c: Column) => {
      const i = columns.indexOf(c);
      return i >= 0 && row[i] ? row[i] : null;
    };
    const operacao = pick('operacao') ?? 'Tramitação';
    const unidadeOrigem = pick('origem');
    const unidadeDestino = pick('destino');
    const base = [dataHora, operacao, unidadeOrigem ?? '', unidadeDestino ?? ''].join('|');
    // Two identical rows are two movements: their rank keeps their keys apart and stable.
    const rank = (seen.get(base) ?? 0) + 1;
    seen.set(base, rank);
    out.push({ key: createHash('sha1').update(`${base}|${rank}`).digest('hex'), dataHora, operacao, unidadeOrigem, unidadeDestino });
  }
  return out.sort((a, b) => a.dataHora.localeCompare(b.dataHora));
}

/** What the detail page of `nup` says. */
export function readDetailPage(html: string, nup: string): DetailPage {
  if (CAPTCHA.test(html)) return { kind: 'captcha' };
  // A page cut short would silently lose its last tramitações.
  if (!/<\/html>\s*$/i.test(html)) return { kind: 'unreadable', why: 'the page is cut short (no </html>)' };
  const rows = rowsOf(html);
  const fields: Partial<Fields> = {};
  for (const row of rows) {
    if (row.length !== 2) continue;
    const field = fieldOf(row[0]);
    if (field && fields[field] === undefined && row[1] !== '') fields[field] = row[1];
  }
  if (fields.numero === undefined) {
    if (NOT_FOUND.test(foldText(html))) return { kind: 'not_found' };
    return { kind: 'unreadable', why: 'the page names no protocol number' };
  }
  if (fields.numero.replace(/\D/g, '') !== nup) return { kind: 'unreadable', why: 'the page is about another protocol number' };
  return {
    kind: 'found',
    process: {
      nup,
      tipo: fields.tipo ?? null,
      assunto: fields.assunto ?? null,
      interessados: (fields.interessados ?? '')
        .split('\n')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
      orgaoOrigem: fields.orgao ?? null,
      dataAutuacao: fields.data ? isoDayOfBr(fields.data) : null,
      tramitacoes: movementsOf(rows),
    },
  };
}
