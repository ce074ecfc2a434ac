/**
 * `tramita precatorios import FILE --tribunal SIGLA`: a court's list (CSV, or the first worksheet of an
 * XLSX) into the store, read row by row (a million-row list stays out of memory), in slices of SLICE rows per statement. Idempotent:
 * records are keyed by source, court and number, so importing the same file again updates them. Every
 * rejected line is reported with its number and reason; the import itself is recorded with its counts.
 * Progress is reported by bytes read, for a terminal's progress bar.
 */
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { iso } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import type { Services } from '../../platform/services.ts';
import { delimiterOf, headerMap, RowError, rowOf, splitCsvLine } from './rows.ts';
import { concludeImport, precatorioRecord, recordImport, upsertPrecatorios } from './store.ts';
import type { PrecatoriosTable } from '../../platform/db/schema.ts';

export const IMPORT_SOURCE = 'importacao';
const SLICE = 500;
/** Rejections kept in the report (the count is always whole). */
const MAX_REJECTIONS = 1_000;

export interface ImportReport {
  importacaoId: string;
  arquivo: string;
  tribunal: string;
  linhas: number;
  aceitas: number;
  rejeitadas: number;
  rejeicoes: { linha: number; motivo: string }[];
  segundos: number;
}

export async function importPrecatorios(
  s: Services,
  file: string,
  o: { tribunal: string; fonteUrl?: string; onProgress?: (bytes: number, total: number) => void },
): Promise<ImportReport> {
  const started = performance.now();
  const total = statSync(file).size;
  const importacaoId = newId('pimp');
  const now = iso(s.clock.now());
  await recordImport(s.db, {
    id: importacaoId,
    arquivo: path.basename(file),
    tribunal: o.tribunal,
    fonte_url: o.fonteUrl ?? null,
    linhas: 0,
    aceitas: 0,
    rejeitadas: 0,
    iniciado_em: now,
    concluido_em: null,
  });
  const origin = { fonte: IMPORT_SOURCE, tribunal: o.tribunal, fonteUrl: o.fonteUrl ?? null, importacaoId, coletadoEm: now };
  const fingerprint = (doc: string) => s.secrets.fingerprint(doc);
  const report: ImportReport = {
    importacaoId,
    arquivo: path.basename(file),
    tribunal: o.tribunal,
    linhas: 0,
    aceitas: 0,
    rejeitadas: 0,
    rejeicoes: [],
    segundos: 0,
  };
  const onBytes = (bytes: number) => o.onProgress?.(bytes, total);
  const rows = /\.xlsx$/i.test(file) ? xlsxRows(file, onBytes) : csvRows(file, onBytes);
  let map: ReturnType<typeof headerMap> | null = null;
  let slice: PrecatoriosTable[] = [];
  for await (const { line, fields } of rows) {
    if (fields.every((f) => f === '')) continue;
    if (!map) {
      map = headerMap(fields);
      continue;
    }
    report.linhas++;
    try {
      slice.push(precatorioRecord(rowOf(fields, map), origin, fingerprint));
      report.aceitas++;
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
      report.rejeitadas++;
      if (report.rejeicoes.length < MAX_REJECTIONS) report.rejeicoes.push({ linha: line, motivo: err.message });
    }
    if (slice.length >= SLICE) {
      await upsertPrecatorios(s.db, slice);
      slice = [];
    }
  }
  if (!map) throw new RowError(`${path.basename(file)} is empty: expected a header line and records`);
  await upsertPrecatorios(s.db, slice);
  await concludeImport(s.db, importacaoId, {
    linhas: report.linhas,
    aceitas: report.aceitas,
    rejeitadas: report.rejeitadas,
    concluido_em: iso(s.clock.now()),
  });
  report.segundos = (performance.now() - started) / 1000;
  return report;
}

interface SourceRow {
  /** 1-based line (CSV) or row (XLSX) number, as a person finds it in the file. */
  line: number;
  fields: string[];
}

/** A byte counter on a file stream, for the progress bar. */
function counted(file: string, onBytes: (bytes: number) => void, encoding?: BufferEncoding) {
  const stream = createReadStream(file, encoding ? { encoding } : {});
  let bytes = 0;
  stream.on('data', (chunk) => {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    onBytes(bytes);
  });
  return stream;
}

/** A CSV line by line: the delimiter read from the header (`;` or `,`), a leading BOM dropped. */
async function* csvRows(file: string, onBytes: (bytes: number) => void): AsyncGenerator<SourceRow> {
  let delimiter: string | null = null;
  let line = 0;
  for await (const raw of createInterface({ input: counted(file, onBytes, 'utf8'), crlfDelay: Infinity })) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    delimiter ??= delimiterOf(text);
    yield { line, fields: splitCsvLine(text, delimiter) };
  }
}

/** The first worksheet of an XLSX, streamed row by row; numbers and dates become text as a person would write them. */
async function* xlsxRows(file: string, onBytes: (bytes: number) => void): AsyncGenerator<SourceRow> {
  // Loaded on first use: ExcelJS alone is ~170 ms and ~20 MB at start-up (issue 19, docs/benchmarks.md).
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(counted(file, onBytes), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const sheet of reader) {
    for await (const row of sheet) {
      const values = (row.values as unknown[]).slice(1);
      yield { line: row.number, fields: values.map(cellText) };
    }
    return; // the first worksheet is the list
  }
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as { text?: unknown; result?: unknown; richText?: { text: string }[] };
    if (o.richText)
      return o.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if (o.result !== undefined) return cellText(o.result);
    if (o.text !== undefined) return String(o.text).trim();
  }
  return String(v).trim();
}
