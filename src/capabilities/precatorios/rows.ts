/**
 * A court's precatório list as a file (CSV with `;` or `,` and quoted fields, or an XLSX's first
 * worksheet; a header line first) read into
 * records. Courts name their columns differently (TJSP's DEPRE: ORDEM DE PAGAMENTO, NÚMERO DO
 * PROCESSO, ENTE DEVEDOR, NATUREZA…; TJRJ: ordem, número, situação, orçamento, saldo atualizado…,
 * reference/upstream/precatorios.md, wave2.md §G): a header is folded and matched against the aliases
 * below. A row is accepted or rejected with the reason a person can act on; a creditor's CPF/CNPJ is
 * validated and handed on only to be fingerprinted.
 */
import { foldText } from '../../platform/text.ts';
import { isValidCnj } from '../../platform/identifiers/cnj.ts';
import { isValidCnpj, isValidCpf } from '../../platform/identifiers/cpf-cnpj.ts';

export interface PrecatorioRow {
  numero: string;
  numeroProcesso: string | null;
  enteDevedor: string | null;
  natureza: string | null;
  anoOrcamento: number | null;
  ordem: number | null;
  situacao: string | null;
  valorCentavos: number | null;
  /** Digits (CPF) or the 14 characters (CNPJ), to fingerprint; never stored. */
  credorDocumento: string | null;
  /** The TPU class (DataJud's harvest); lists do not say it. */
  classe?: string | null;
}

type Field = Exclude<keyof PrecatorioRow, 'classe'>;

/** Folded header → field; the first alias found in a header wins (an updated value before a historical one). */
const ALIASES: Record<Field, string[]> = {
  numero: ['numero do precatorio', 'numero precatorio', 'precatorio', 'numero', 'numero do protocolo geral', 'n precatorio'],
  numeroProcesso: ['numero do processo', 'numero processo', 'processo', 'numero da acao originaria', 'processo originario', 'numero processo originario'],
  enteDevedor: ['ente devedor', 'entidade devedora', 'devedor', 'ente'],
  natureza: ['natureza'],
  anoOrcamento: ['ano orcamento', 'ano do orcamento', 'orcamento', 'ano'],
  ordem: ['ordem de pagamento', 'ordem cronologica', 'ordem', 'posicao'],
  situacao: ['situacao', 'status'],
  valorCentavos: ['valor atualizado', 'saldo atualizado', 'valor', 'valor historico'],
  credorDocumento: ['cpf cnpj do credor', 'cpf cnpj', 'cpf', 'cnpj', 'documento do credor'],
};

export class RowError extends Error {}

/** The fields of a header line: which column each field reads (-1: absent). */
export function headerMap(header: string[]): Record<Field, number> {
  const folded = header.map((h) => foldText(h));
  const out = {} as Record<Field, number>;
  for (const [field, aliases] of Object.entries(ALIASES) as [Field, string[]][]) {
    out[field] = -1;
    for (const alias of aliases) {
      const i = folded.indexOf(alias);
      if (i >= 0) {
        out[field] = i;
        break;
      }
    }
  }
  if (out.numero < 0 && out.numeroProcesso < 0)
    throw new RowError(`the header names no precatório number nor process number column (read: ${header.join(' | ')})`);
  return out;
}

/** One line of a CSV into fields: `delimiter`-separated, double-quoted fields with `""` inside. */
export function splitCsvLine(line: string, delimiter: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out.map((f) => f.trim());
}

/** `;` when the header has more of them than commas (Brazilian spreadsheets export with `;`). */
export function delimiterOf(header: string): string {
  return (header.match(/;/g)?.length ?? 0) >= (header.match(/,/g)?.length ?? 0) ? ';' : ',';
}

/** "R$ 1.234.567,89", "1234567,89", "1234567.89" → centavos; RowError otherwise. */
export function centavosOf(text: string): number {
  let t = text.replace(/R\$|\s/g, '');
  if (t.includes(',')) t = t.replace(/\./g, '').replace(',', '.');
  else if ((t.match(/\./g)?.length ?? 0) > 1) t = t.replace(/\./g, '');
  if (!/^-?\d+(\.\d{1,2})?$/.test(t)) throw new RowError(`valor "${text}" não é um valor em reais`);
  const [int, dec = ''] = t.replace('-', '').split('.');
  const centavos = Number(int) * 100 + Number(dec.padEnd(2, '0'));
  if (!Number.isSafeInteger(centavos) || t.startsWith('-')) throw new RowError(`valor "${text}" fora do intervalo`);
  return centavos;
}

function integerOf(text: string, what: string, min: number, max: number): number {
  const n = Number(text.replace(/[º°ª.\s]/g, ''));
  if (!Number.isInteger(n) || n < min || n > max) throw new RowError(`${what} "${text}" inválido`);
  return n;
}

/** A data line into a record, or RowError saying why not. */
export function rowOf(fields: string[], map: Record<Field, number>): PrecatorioRow {
  const get = (f: Field) => (map[f] >= 0 ? (fields[map[f]] ?? '').trim() : '');
  const processo = get('numeroProcesso');
  if (processo && !isValidCnj(processo)) throw new RowError(`número do processo "${processo}" não é um número CNJ válido`);
  const numero = get('numero') || processo;
  if (!numero) throw new RowError('sem número do precatório nem do processo');
  // A spreadsheet that kept a CPF as a number dropped its leading zeros: put them back.
  const typed = get('credorDocumento')
    .toUpperCase()
    .replace(/[.\-/\s]/g, '');
  const doc = /^\d{9,10}$/.test(typed) ? typed.padStart(11, '0') : typed;
  if (doc && !(isValidCpf(doc) || isValidCnpj(doc))) throw new RowError('CPF/CNPJ do credor inválido');
  const ano = get('anoOrcamento');
  const ordem = get('ordem');
  const valor = get('valorCentavos');
  return {
    numero,
    numeroProcesso: processo ? processo.replace(/\D/g, '') : null,
    enteDevedor: get('enteDevedor') || null,
    natureza: get('natureza') || null,
    anoOrcamento: ano ? integerOf(ano, 'ano do orçamento', 1988, 2100) : null,
    ordem: ordem ? integerOf(ordem, 'ordem', 1, 999_999_999) : null,
    situacao: get('situacao') || null,
    valorCentavos: valor ? centavosOf(valor) : null,
    credorDocumento: doc || null,
  };
}
