/**
 * `tramita precatorios import FILE --tribunal SIGLA`: a court's list (CSV) into the store, read line
 * by line (a million-row list stays out of memory), in slices of SLICE rows per statement. Idempotent:
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
import { precatorioRecord, upsertPrecatorios } from './store.ts';
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

export async function importPrecatorios(s: Services, file: string, o: { tribunal: string; fonteUrl?: string; onProgress?: (bytes: number, total: number) => void }): Promise<ImportReport> {
  const started = performance.now();
  const total = statSync(file).size;
  const importacaoId = newId('pimp');
  const now = iso(s.clock.now());
  await s.db.insertInto('precatorio_imports').values({ id: importacaoId, arquivo: path.basename(file), tribunal: o.tribunal, fonte_url: o.fonteUrl ?? null, linhas: 0, aceitas: 0, rejeitadas: 0, iniciado_em: now, concluido_em: null }).execute();
  const origin = { fonte: IMPORT_SOURCE, tribunal: o.tribunal, fonteUrl: o.fonteUrl ?? null, importacaoId, coletadoEm: now };
  const fingerprint = (doc: string) => s.secrets.fingerprint(doc);
  const report: ImportReport = { importacaoId, arquivo: path.basename(file), tribunal: o.tribunal, linhas: 0, aceitas: 0, rejeitadas: 0, rejeicoes: [], segundos: 0 };
  const stream = createReadStream(file, { encoding: 'utf8' });
  let bytes = 0;
  stream.on('data', (chunk) => {
    bytes += Buffer.byteLength(chunk as string);
    o.onProgress?.(bytes, total);
  });
  let map: ReturnType<typeof headerMap> | null = null;
  let delimiter = ';';
  let slice: PrecatoriosTable[] = [];
  let lineNo = 0;
  for await (const raw of createInterface({ input: stream, crlfDelay: Infinity })) {
    lineNo++;
    const line = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    if (!map) {
      delimiter = delimiterOf(line);
      map = headerMap(splitCsvLine(line, delimiter));
      continue;
    }
    report.linhas++;
    try {
      slice.push(precatorioRecord(rowOf(splitCsvLine(line, delimiter), map), origin, fingerprint));
      report.aceitas++;
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
      report.rejeitadas++;
      if (report.rejeicoes.length < MAX_REJECTIONS) report.rejeicoes.push({ linha: lineNo, motivo: (err as Error).message });
    }
    if (slice.length >= SLICE) {
      await upsertPrecatorios(s.db, slice);
      slice = [];
    }
  }
  if (!map) throw new RowError(`${path.basename(file)} is empty: expected a header line and records`);
  await upsertPrecatorios(s.db, slice);
  await s.db.updateTable('precatorio_imports').set({ linhas: report.linhas, aceitas: report.aceitas, rejeitadas: report.rejeitadas, concluido_em: iso(s.clock.now()) }).where('id', '=', importacaoId).execute();
  report.segundos = (performance.now() - started) / 1000;
  return report;
}
