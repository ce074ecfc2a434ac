/**
 * `tramita precatorios import FILE --tribunal SIGLA [--fonte-url URL] [--json]`: a court's precatório
 * list into the store (capabilities/precatorios/import.ts). On a terminal a progress bar on stderr;
 * then the counts and the rejected lines with their reasons (the first 50; `--json` has up to 1,000).
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { courtBySigla } from '../platform/courts/table.ts';
import type { Services } from '../platform/services.ts';
import { importPrecatorios, type ImportReport } from '../capabilities/precatorios/import.ts';
import { RowError } from '../capabilities/precatorios/rows.ts';
import { NotFoundError, UsageError, type Print } from './admin.ts';
import { progressReporter } from '../platform/observability/progress.ts';

const SHOWN_REJECTIONS = 50;

export async function precatoriosCommand(s: Services, argv: string[], print: Print): Promise<number> {
  const [sub, ...args] = argv;
  if (sub !== 'import') throw new UsageError(`unknown precatorios command "${sub ?? ''}"`);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { tribunal: { type: 'string' }, 'fonte-url': { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new UsageError('expected FILE');
  const court = values.tribunal ? courtBySigla(values.tribunal.trim().toUpperCase()) : undefined;
  if (!court) throw new UsageError(`--tribunal must be a court sigla of GET /v1/tribunais (e.g. TJSP), got ${JSON.stringify(values.tribunal ?? '')}`);
  if (!existsSync(positionals[0])) throw new NotFoundError(`no file ${positionals[0]}`);
  let report: ImportReport;
  try {
    report = await importPrecatorios(s, positionals[0], {
      tribunal: court.sigla,
      fonteUrl: values['fonte-url'],
      onProgress: progressReporter(s.log, 'importando'),
    });
  } catch (err) {
    if (err instanceof RowError) throw new UsageError(`${positionals[0]}: ${err.message}`);
    throw err;
  }
  if (values.json) {
    print(JSON.stringify(report));
    return 0;
  }
  print(
    `${report.arquivo} (${report.tribunal}): ${report.linhas} linhas, ${report.aceitas} importadas, ${report.rejeitadas} rejeitadas ` +
      `em ${report.segundos.toFixed(1)} s (importação ${report.importacaoId})`,
  );
  for (const r of report.rejeicoes.slice(0, SHOWN_REJECTIONS)) print(`  linha ${r.linha}: ${r.motivo}`);
  if (report.rejeitadas > SHOWN_REJECTIONS) print(`  … e mais ${report.rejeitadas - SHOWN_REJECTIONS} (--json lista até 1.000)`);
  return 0;
}
